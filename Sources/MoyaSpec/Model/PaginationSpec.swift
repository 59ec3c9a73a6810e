import MoyaHTTP
import MoyaJSONPath
import MoyaYAML

/// How a target's responses come in pages, from its `paginate:`: where a page's items are,
/// and how the page after it is asked for. `call --all`, and checks and flow steps with
/// `pages:`, follow it.
public struct PaginationSpec: Sendable {
    /// How the request for the next page is found in a page.
    public enum Next: Sendable, Hashable {
        /// `next: link`: the URL in the `Link` header's `rel="next"` (RFC 8288).
        case link
        /// `next: { url: PATH }`: a next URL in the body, at this path.
        case url(JSONPath)
        /// `next: { param: NAME, from: PATH }`: a cursor or token in the body, sent back as the
        /// param `NAME`.
        case cursor(param: String, from: JSONPath)
        /// `next: { param: NAME, increment: N }`: a page or offset number, `N` more each page;
        /// an empty page is the last.
        case increment(param: String, by: Int)
    }

    /// Where a page's items are: a singular path names the array, any other path selects the
    /// items themselves. Nil when the body is the array.
    public var items: JSONPath?
    /// How the next page is asked for.
    public var next: Next
    /// Where `paginate:` is written.
    public var mark: Mark

    /// A pagination that reads the items at `items` and asks for the next page as `next` says.
    public init(items: JSONPath?, next: Next, mark: Mark) {
        self.items = items
        self.next = next
        self.mark = mark
    }

    /// The param the next page is asked for with, for the styles that send one.
    public var param: String? {
        switch next {
        case .link, .url: nil
        case .cursor(let param, _), .increment(let param, _): param
        }
    }

    /// How the pages are followed, in one line, as `describe` prints it: `next: link, items
    /// $.data`.
    public var summary: String {
        let next =
            switch next {
            case .link: "next: link"
            case .url(let path): "next: url at \(path)"
            case .cursor(let param, let path): "next: \(param) from \(path)"
            case .increment(let param, let step): "next: \(param) + \(step), to an empty page"
            }
        return next + ", items " + (items?.description ?? "the body")
    }

    /// As `describe --json` prints it: `{ "items": "$.data", "next": "link" }`, or `next` as
    /// `{ "url": PATH }`, `{ "param": NAME, "from": PATH }` or `{ "param": NAME, "increment": N }`.
    public var json: JSONValue {
        let next: JSONValue =
            switch next {
            case .link: .string("link")
            case .url(let path): .object([("url", .string(path.description))])
            case .cursor(let param, let path):
                .object([("param", .string(param)), ("from", .string(path.description))])
            case .increment(let param, let step): .object([("param", .string(param)), ("increment", .integer(step))])
            }
        return .object([("items", items.map { .string($0.description) } ?? .null), ("next", next)])
    }

    /// The name of the sample a stub answers page `number` with, from the second on: `page2`,
    /// `page3`, …; the first page is the target's sample.
    public static func sampleName(forPage number: Int) -> String {
        "page\(number)"
    }
}

/// How many pages a check or a flow step reads (`pages: all` or `pages: N`); its `expect` and
/// captures see every item of them, merged into one JSON array.
public enum PageCount: Sendable, Hashable {
    /// Every page, to the last one.
    case all
    /// The first N pages at most.
    case first(Int)

    /// The most pages `all` reads: enough for any list a check means to read whole, and a
    /// bound on a server whose pages never end.
    public static let allLimit = 10_000
}
