// The app's models and networking (Examples/RepoBrowser), with its list endpoint by the name
// the page gives it (RepoBrowserAPI declares it inside its namespace).
import ContractModel
import RepoBrowserAPI

typealias UserRepositories = RepoBrowserAPI.UserRepositories
