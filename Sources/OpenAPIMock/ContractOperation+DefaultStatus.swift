import APISchema

extension ContractOperation {
    /// The status a document answer has when the request asks for none, as Prism chooses it:
    /// the lowest documented 2xx, else a `2XX` range, else `default`, else the first documented
    /// status, else `200`.
    package var defaultStatus: String {
        let successes = responses.filter { Int($0.status).map { (200..<300).contains($0) } ?? false }
        if let lowest = successes.min(by: { $0.status < $1.status }) { return lowest.status }
        return documentedStatus(for: 200) ?? responses.first?.status ?? "200"
    }

    /// The documented response that answers with status `code`: the one of that status, else
    /// the range holding it (`4XX` for 404), else `default`; nil when none does.
    func documentedStatus(for code: Int) -> String? {
        let exact = String(code)
        if responses.contains(where: { $0.status == exact }) { return exact }
        let range = "\(code / 100)XX"
        if let ranged = responses.first(where: { $0.status.uppercased() == range }) { return ranged.status }
        return responses.contains { $0.status == "default" } ? "default" : nil
    }
}
