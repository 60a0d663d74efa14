import ContractCLI
import RepoBrowserContract

await ContractTool(name: "repo-contract", contract: RepoBrowserContract.contract).main()
