import MoyaHTTP

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What an import of a collection makes: the spec, its service's name, and the report.
public struct ImportedCollection: Sendable {
    public var spec: String
    public var service: String
    public var report: ImportReport
}

/// Why a file is not one an importer reads: a Postman v1 collection, an Insomnia format 1
/// export, a file that is no JSON.
public struct ImportRefusal: Error, Sendable {
    public var message: String
}

/// Names in the order first added, each once, added in constant time: a stranger's file may
/// name a million.
struct OrderedNames {
    private(set) var list: [String] = []
    private var seen: Set<String> = []

    mutating func add(_ name: String) {
        if seen.insert(name).inserted { list.append(name) }
    }
}

/// What an import of a collection carried and what it did not: the summary it prints, each
/// thing not carried with its place in the source, and the same as JSON (`--report`).
/// Nothing is left out of a spec without an entry here.
public struct ImportReport: Sendable, Equatable {
    /// One thing not carried: where it is in the source (`file:line`, or an item's path), what
    /// it is, and why.
    public struct Item: Sendable, Equatable {
        public var place: String
        public var what: String
        public var reason: String

        public init(place: String, what: String, reason: String) {
            self.place = place
            self.what = what
            self.reason = reason
        }
    }

    /// The source's format (`curl`, …) and file.
    public var format: String
    public var source: String
    /// Requests in the source, and the targets and services made from them.
    public var requests = 0
    public var targets = 0
    public var services = 0
    /// Requests carried by another's target: a HAR's entries of one method and path.
    public var merged = 0
    public var notCarried: [Item] = []
    /// The environment variables the spec reads credentials from, which the source held as
    /// values and the spec never does.
    public var variables: [String] = []

    public init(format: String, source: String) {
        self.format = format
        self.source = source
    }

    /// The user of an `Authorization: Basic …` value whose credentials are `user:password` in
    /// UTF-8; nil for any other value. The password is never returned: it stays unwritten.
    static func basicUser(ofHeader value: String) -> String? {
        guard value.count > 6, value.prefix(6).lowercased() == "basic ",
            let data = Data(base64Encoded: String(value.dropFirst(6)).trimmingBlanks),
            let credentials = String(data: data, encoding: .utf8), let colon = credentials.firstIndex(of: ":")
        else { return nil }
        return String(credentials[..<colon])
    }

    /// A JSON body whose members named like credentials (`password`, `token`, …, at any
    /// depth) hold text: the body with each such value read from `variable(name)`, serialized
    /// compactly; nil when the text is no JSON or holds no such member, and is kept as it is.
    static func withholdingCredentials(
        inJSON text: String, variable: (String) -> ImportedSpec.Text
    ) -> ImportedSpec.Text? {
        guard let first = text.first(where: { !$0.isWhitespace }), first == "{" || first == "[",
            let json = try? JSONValue(parsing: text)
        else { return nil }
        var pieces: [ImportedSpec.Text.Piece] = []
        var found = false
        var pending = ""
        func write(_ value: JSONValue, depth: Int) {
            switch value {
            case .object(let members) where depth < 64:
                pending += "{"
                for (index, member) in members.enumerated() {
                    if index > 0 { pending += "," }
                    pending += JSONValue.string(member.key).serialized(escapeSlashes: false) + ":"
                    if case .string = member.value, Self.isCredentialField(member.key) {
                        found = true
                        pending += "\""
                        pieces.append(.data(pending))
                        pending = ""
                        pieces += variable(member.key).pieces
                        pending += "\""
                    } else {
                        write(member.value, depth: depth + 1)
                    }
                }
                pending += "}"
            case .array(let items) where depth < 64:
                pending += "["
                for (index, item) in items.enumerated() {
                    if index > 0 { pending += "," }
                    write(item, depth: depth + 1)
                }
                pending += "]"
            default:
                pending += value.serialized(escapeSlashes: false)
            }
        }
        write(json, depth: 0)
        guard found else { return nil }
        pieces.append(.data(pending))
        return ImportedSpec.Text(pieces)
    }

    /// Whether a body's field or member names a credential: stricter than a header's name,
    /// since `key` and `code` in a body are more often data than secrets.
    static func isCredentialField(_ name: String) -> Bool {
        let lower = name.lowercased().filter { $0 != "_" && $0 != "-" }
        let words = [
            "password", "passwd", "secret", "token", "apikey", "accesskey", "privatekey", "credential", "sessionid",
            "signature",
        ]
        return words.contains { lower.contains($0) } || lower == "auth" || lower == "authorization"
    }

    /// The methods a spec can send.
    static let methods = Set(Method.allKnown.map(\.rawValue)).union(Method.registered)

    /// Adds another report of the same import (an export's next workspace, the next `.http`
    /// file): its counts, its lines, and the variables it names that this one does not.
    public mutating func add(_ other: ImportReport) {
        requests += other.requests
        targets += other.targets
        services += other.services
        merged += other.merged
        notCarried += other.notCarried
        var names = OrderedNames()
        for variable in variables + other.variables { names.add(variable) }
        variables = names.list
    }

    mutating func leave(_ place: String, _ what: String, _ reason: String) {
        notCarried.append(Item(place: place, what: what, reason: reason))
    }

    /// `3 requests → 3 targets in 1 service; 2 things not carried, listed below`.
    public var summary: String {
        func count(_ number: Int, _ word: String) -> String { "\(number) \(word)\(number == 1 ? "" : "s")" }
        var line = "\(count(requests, "request")) → \(count(targets, "target")) in \(count(services, "service"))"
        if merged > 0 { line += " (\(merged) joined the target of the same method and path)" }
        switch notCarried.count {
        case 0: line += "; everything carried"
        case 1: line += "; 1 thing not carried, listed below"
        default: line += "; \(notCarried.count) things not carried, listed below"
        }
        return line
    }

    /// The lines printed on stderr: each thing not carried, then the variables to set.
    public var lines: [String] {
        var lines = notCarried.map { "\($0.place): not carried: \($0.what): \($0.reason)" }
        if !variables.isEmpty {
            lines.append(
                "set \(variables.joined(separator: ", ")) before calling: "
                    + "the source's credentials are read from the environment, never written into the spec")
        }
        return lines
    }

    /// The report as JSON, keys in a fixed order.
    public var json: String {
        let object: JSONValue = .object([
            ("format", .string(format)),
            ("source", .string(source)),
            ("requests", .integer(requests)),
            ("targets", .integer(targets)),
            ("services", .integer(services)),
            ("merged", .integer(merged)),
            (
                "notCarried",
                .array(
                    notCarried.map { item in
                        .object([
                            ("place", .string(item.place)), ("what", .string(item.what)),
                            ("reason", .string(item.reason)),
                        ])
                    })
            ),
            ("variables", .array(variables.map { .string($0) })),
        ])
        return object.serialized(escapeSlashes: false) + "\n"
    }
}
