/// Where the walk is, as a chain to the root, made into an XPath only for a difference.
final class PathLink: Sendable {
    enum Kind: Sendable {
        case element
        case text
        case instruction
    }

    let parent: PathLink?
    let kind: Kind
    let name: String
    let position: Int

    init(parent: PathLink?, kind: Kind, name: String, position: Int) {
        self.parent = parent
        self.kind = kind
        self.name = name
        self.position = position
    }

    /// The XPath, `/things[1]/thing[2]`.
    var rendered: String {
        var steps: [String] = []
        var link: PathLink? = self
        while let here = link {
            switch here.kind {
            case .element: steps.append("\(here.name)[\(here.position)]")
            case .text: steps.append("text()[\(here.position)]")
            case .instruction: steps.append("processing-instruction()[\(here.position)]")
            }
            link = here.parent
        }
        return "/" + steps.reversed().joined(separator: "/")
    }
}
