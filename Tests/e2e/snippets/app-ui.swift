// What the app around the snippet has: a table to fill, a log and a way to show an error.
import PetClient
import PetModels

final class TableView { var data: [PetVetCellViewModel] = [] }
let tableView = TableView()
func log(_ value: Any) { print(value) }
func show(_ error: any Error) { print(error) }
