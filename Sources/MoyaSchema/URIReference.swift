import MoyaJSON

/// A URI reference split into RFC 3986's five parts, and resolved against a base as its
/// section 5.2 says: what `$id`, `$ref` and `$dynamicRef` are resolved with. URNs
/// (`urn:uuid:…`) and other schemes without an authority resolve by the same rules.
public struct URIReference: Hashable, Sendable, CustomStringConvertible {
    public var scheme: String?
    public var authority: String?
    public var path: String
    public var query: String?
    public var fragment: String?

    /// Splits `text` as RFC 3986's appendix B does; every string is some reference.
    public init(_ text: String) {
        var rest = Substring(text)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"), colon != rest.startIndex,
            !rest[..<colon].contains(where: { $0 == "/" })
        {
            scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            authority = String(rest[..<end])
            rest = rest[end...]
        }
        path = String(rest)
    }

    private init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// The reference written out again (RFC 3986 section 5.3).
    public var description: String {
        var text = ""
        if let scheme { text += scheme + ":" }
        if let authority { text += "//" + authority }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }

    /// The reference without its fragment: the URI of the document or resource it names.
    public var withoutFragment: URIReference {
        URIReference(scheme: scheme, authority: authority, path: path, query: query, fragment: nil)
    }

    /// This reference resolved against `base` (RFC 3986 section 5.2.2).
    public func resolved(against base: URIReference) -> URIReference {
        if scheme != nil {
            return URIReference(
                scheme: scheme, authority: authority, path: Self.removingDotSegments(path), query: query,
                fragment: fragment)
        }
        if authority != nil {
            return URIReference(
                scheme: base.scheme, authority: authority, path: Self.removingDotSegments(path), query: query,
                fragment: fragment)
        }
        if path.isEmpty {
            return URIReference(
                scheme: base.scheme, authority: base.authority, path: base.path, query: query ?? base.query,
                fragment: fragment)
        }
        let merged: String
        if path.hasPrefix("/") {
            merged = path
        } else if base.authority != nil, base.path.isEmpty {
            merged = "/" + path
        } else if let slash = base.path.lastIndex(of: "/") {
            merged = base.path[...slash] + path
        } else {
            merged = path
        }
        return URIReference(
            scheme: base.scheme, authority: base.authority, path: Self.removingDotSegments(merged), query: query,
            fragment: fragment)
    }

    /// `.` and `..` segments taken out of a path (RFC 3986 section 5.2.4).
    static func removingDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var input = Substring(path)
        var output: [Substring] = []
        var absolute = false
        if input.hasPrefix("/") {
            absolute = true
            input = input.dropFirst()
        }
        let segments = input.split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            switch segment {
            case ".":
                if last { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if last { output.append("") }
            default:
                output.append(segment)
            }
        }
        return (absolute ? "/" : "") + output.joined(separator: "/")
    }
}

extension URIReference {
    /// The fragment as a JSON pointer's reference tokens (RFC 6901: percent-decoded, then
    /// split, then `~1` and `~0` read): empty for no fragment or an empty one, nil for a
    /// plain-name anchor (`#foo`).
    public var pointer: [String]? {
        let fragment = PercentEncoding.decode(Substring(self.fragment ?? ""))
        if fragment.isEmpty { return [] }
        guard fragment.hasPrefix("/") else { return nil }
        return fragment.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacing("~1", with: "/").replacing("~0", with: "~")
        }
    }
}
