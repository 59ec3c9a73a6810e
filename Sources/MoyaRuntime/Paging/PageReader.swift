import MoyaHTTP
import MoyaJSONPath
import MoyaSpec

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Reads the pages of a paginated target, as its `paginate:` says: each page's items, and
/// the request for the page after it, or nil when it is the last. It only reads;
/// `SpecClient`'s `pages` sends.
public struct PageReader: Sendable {
    /// What the next page is asked for with.
    public enum NextRequest: Sendable, Hashable {
        /// The next page's URL, absolute.
        case url(URL)
        /// The value the paging param takes: a cursor, or the next page's number or offset.
        case argument(String, ParamValue)
    }

    /// The target's `paginate:`.
    public let pagination: PaginationSpec
    /// The type of the param the next page is asked for with, if a param is.
    public let paramType: ParamType?
    /// The scheme, host and port every next URL must have, unless `allowsCrossOrigin`.
    public let origin: Origin
    /// Whether a next URL may lead to another origin (`--allow-cross-origin`).
    public let allowsCrossOrigin: Bool

    /// A reader of `target`'s pages, which are asked for at `origin`; nil when the target has
    /// no `paginate:`.
    public init?(target: TargetSpec, origin: Origin, allowsCrossOrigin: Bool = false) {
        guard let pagination = target.pagination else { return nil }
        self.pagination = pagination
        paramType = pagination.param.flatMap { name in target.params.first { $0.name == name }?.type }
        self.origin = origin
        self.allowsCrossOrigin = allowsCrossOrigin
    }

    /// A page's body as JSON.
    public func body(of response: Response) throws(PagingFailure) -> JSONValue {
        do {
            return try response.mapJSON()
        } catch {
            throw PagingFailure("the page is not JSON, so its items cannot be read")
        }
    }

    /// What asks for the page after `response`, whose body is `body` and items `items`, which
    /// answered the request for `url`; `current` is the value the paging param had in it. Nil
    /// on the last page.
    public func next(
        after response: Response, body: JSONValue, items: [JSONValue], at url: URL, current: ParamValue?
    ) throws(PagingFailure) -> NextRequest? {
        switch pagination.next {
        case .link:
            guard let target = LinkHeader.target(rel: "next", in: response.headers.values(for: "Link")) else {
                return nil
            }
            return .url(try nextURL(target, from: url, source: "its Link header"))
        case .url(let path):
            switch path.values(in: body).first {
            case nil, .null?, .string("")?:
                return nil
            case .string(let text)?:
                return .url(try nextURL(text, from: url, source: path.description))
            case let value?:
                throw PagingFailure("the next URL at \(path) is \(value.kindName), not a string")
            }
        case .cursor(let param, let path):
            return try cursor(path.values(in: body).first, at: path).map { .argument(param, $0) }
        case .increment(let param, let step):
            guard !items.isEmpty else { return nil }
            guard case .int(let number)? = current else {
                throw PagingFailure("the page number '\(param)' is not a whole number")
            }
            let (next, overflow) = number.addingReportingOverflow(step)
            guard !overflow else { throw PagingFailure("the page number '\(param)' would pass \(Int.max)") }
            return .argument(param, .int(next))
        }
    }

    /// The items of a page's body: the array a singular `items` path names, the values any
    /// other path selects, or the body itself.
    public func items(in body: JSONValue) throws(PagingFailure) -> [JSONValue] {
        guard let path = pagination.items else {
            guard case .array(let items) = body else {
                throw PagingFailure(
                    "the page is \(body.kindName), not an array; say where its items are with paginate.items")
            }
            return items
        }
        let values = path.values(in: body)
        guard path.isSingular else { return values }
        switch values.first {
        case .array(let items)?: return items
        case .null?: return []
        case nil: throw PagingFailure("the page has nothing at \(path), where its items should be")
        case let value?: throw PagingFailure("the items at \(path) are \(value.kindName), not an array")
        }
    }

    /// A cursor read from the body as the paging param's value; nil, an empty string or
    /// `false` mean there is no next page.
    func cursor(_ value: JSONValue?, at path: JSONPath) throws(PagingFailure) -> ParamValue? {
        switch value {
        case nil, .null?, .string("")?, .bool(false)?:
            return nil
        case .string(let text)?:
            if paramType == .int, let number = Int(text) { return .int(number) }
            return .string(text)
        case .integer(let number)?:
            return paramType == .int ? .int(number) : .string(String(number))
        case let value?:
            throw PagingFailure("the cursor at \(path) is \(value.kindName), not a string or a whole number")
        }
    }

    /// `text`, a URL reference from the page at `url`, made absolute and checked against the
    /// origin.
    func nextURL(_ text: String, from url: URL, source: String) throws(PagingFailure) -> URL {
        guard let next = URL(string: text, relativeTo: url)?.absoluteURL, let nextOrigin = Origin(next) else {
            throw PagingFailure("the next URL in \(source) is not an http or https URL")
        }
        guard origin.scheme != "https" || nextOrigin.scheme == "https" else {
            throw PagingFailure(
                "the next URL in \(source) leads from https to \(nextOrigin), a downgrade that is never followed",
                isCrossOrigin: true)
        }
        guard allowsCrossOrigin || nextOrigin == origin else {
            throw PagingFailure(
                "the next URL in \(source) leads to \(nextOrigin), off the target's origin \(origin); "
                    + "--allow-cross-origin follows it", isCrossOrigin: true)
        }
        return next
    }
}

/// Why pages stopped before the last: what was wrong with a page, or where it led.
public struct PagingFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as one clause.
    public var reason: String
    /// Whether a next URL led off the target's origin.
    public var isCrossOrigin: Bool
    /// The page it happened on, from 1.
    public var page = 0

    /// A failure for `reason`.
    public init(_ reason: String, isCrossOrigin: Bool = false) {
        self.reason = reason
        self.isCrossOrigin = isCrossOrigin
    }

    /// This failure, on page `number`.
    func onPage(_ number: Int) -> PagingFailure {
        var failure = self
        failure.page = number
        return failure
    }

    public var description: String { "page \(page): \(reason)" }
}

/// A URL's scheme, host and port (RFC 6454): what a next page's URL must share with the
/// first's.
public struct Origin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    public var scheme: String
    /// The host, lowercased.
    public var host: String
    /// The port, the scheme's own when the URL gives none.
    public var port: Int

    /// The origin of `url`; nil unless it is an http or https URL with a host.
    public init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        self.scheme = scheme
        self.host = host
        port = url.port ?? (scheme == "https" ? 443 : 80)
    }

    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let defaultPort = scheme == "https" ? 443 : 80
        return "\(scheme)://\(shownHost)" + (port == defaultPort ? "" : ":\(port)")
    }
}
