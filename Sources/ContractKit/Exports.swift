// `import ContractKit` also brings what its API is written in: the contract and OpenAPI
// document model with its errors (APISchema: `Contract`, `ContractError`, `Schema`) and JSON
// values (JSONKit: `JSONValue`).
@_exported import APISchema
@_exported import JSONKit
