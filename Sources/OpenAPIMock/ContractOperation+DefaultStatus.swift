import APISchema

extension ContractOperation {
    /// The status a document answer has when the request asks for none: the lowest documented
    /// 2xx, else the first documented status (`default` included), else `200`.
    package var defaultStatus: String {
        let successes = responses.filter { Int($0.status).map { (200..<300).contains($0) } ?? false }
        return successes.min { $0.status < $1.status }?.status ?? responses.first?.status ?? "200"
    }
}
