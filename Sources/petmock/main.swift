import MockCLI
import PetAppContract

// petmock with the pet app's contract built in (what `record --crawl` walks and checks).
await MockTool(contract: PetApp.contract).main()
