import ContractCLI
import PetAppContract

// The pet app's petcontract: the whole command line, with the app's own contract built in.
await ContractTool(name: "petcontract", contract: PetApp.contract).main()
