// What the app's snippets take for granted: its models, endpoints and networking
// (Examples/RepoBrowser: Repository, APIError, UserRepositories, RepositoryList).
import ContractModel
import RepoBrowserAPI
