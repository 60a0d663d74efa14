import ContractKit
import RepoBrowserAPI

/// The browser's contract: what it calls, read as its decoder reads it.
public enum RepoBrowserContract {
    /// Written by `swift run repo-contract generate` to `Contracts/repo-browser.openapi.json`.
    public static let contract = ConsumerContract(
        title: "Repo Browser", version: "1.0.0", description: "What the repositories browser calls.",
        endpoints: RepoBrowserAPI.endpoints, makeDecoder: RepoBrowserAPI.makeDecoder)
}
