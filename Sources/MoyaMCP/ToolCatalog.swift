import MoyaHTTP
import MoyaMCPProtocol
import MoyaSchema
import MoyaSpec
import Synchronization

/// One target or flow as an MCP tool: its name, what the model reads about it, and, when it is
/// not offered, why. A class: a call looks it up and reads its spec without copying either.
public final class ToolDescriptor: Sendable {
    /// What the tool runs.
    public enum Subject: Sendable {
        case target(ServiceSpec, TargetSpec)
        case flow(ServiceSpec, FlowSpec)
    }

    /// The spec it comes from, shared by the service's tools, and which target or flow of it:
    /// a catalog of thousands keeps one copy of each service, not one per tool.
    private let owner: ServiceOwner
    private let index: Int
    private let isFlow: Bool

    /// What the tool runs.
    public var subject: Subject {
        let service = owner.service
        return isFlow ? .flow(service, service.flows[index]) : .target(service, service.targets[index])
    }

    /// The tool's name: `SERVICE.NAME`, or a unique shortening of it when that is over 64
    /// characters, which clients refuse.
    public let name: String
    /// `SERVICE.NAME`, whatever the tool's name.
    public let fullName: String
    /// A human-readable title: the summary, else the full name.
    public let title: String
    /// Why the tool is not offered, naming the flag that would offer it; nil when it is.
    public let refusal: String?
    /// The method, for annotations; nil for a flow.
    public let method: Method?
    /// `--allow-files`.
    let filesFolder: String?
    /// For a flow, whether every step reads only, and whether a step deletes.
    let flowSendsOnlyReads: Bool
    let flowDeletes: Bool

    init(
        owner: ServiceOwner, index: Int, isFlow: Bool, name: String, fullName: String, title: String, refusal: String?,
        method: Method?, filesFolder: String?, flowMethods: [Method] = []
    ) {
        self.owner = owner
        self.index = index
        self.isFlow = isFlow
        self.name = name
        self.fullName = fullName
        self.title = VisibleText(title).text
        self.refusal = refusal
        self.method = method
        self.filesFolder = filesFolder
        flowSendsOnlyReads = flowMethods.allSatisfy(ToolExposure.readOnlyMethods.contains)
        flowDeletes = flowMethods.contains(.delete)
    }

    // The rest is worked out when asked for: a page of `tools/list` describes 100 of a
    // catalog that may hold thousands.

    /// What the model reads: the summary and description, the method and path, what it
    /// answers. Never a credential or an environment value, nor a character a person could
    /// not see (`VisibleText`): when any was removed, from here, the title or a param's
    /// description, the description ends by saying so.
    public var description: String {
        let written: String
        var hidden: [String] = []
        switch subject {
        case .target(let service, let target):
            written = ToolCatalog.description(of: target, in: service, fullName: name == fullName ? nil : fullName)
            // The title is the summary's first line, which the description holds.
            hidden = target.params.compactMap(\.description)
        case .flow(let service, let flow):
            written = ToolCatalog.description(of: flow, in: service, fullName: name == fullName ? nil : fullName)
        }
        let visible = VisibleText(written)
        return visible.text + VisibleText.notice(visible.removed + hidden.reduce(0) { $0 + VisibleText($1).removed })
    }

    /// JSON Schema 2020-12 of the arguments.
    public var inputSchema: JSONValue {
        switch subject {
        case .target(let service, let target): ToolInput.schema(for: target, in: service, allowsFilesIn: filesFolder)
        case .flow(_, let flow): ToolInput.schema(for: flow)
        }
    }

    /// The target's response schema (`schema:`), bundled whole with what its `$ref`s reach
    /// (`SchemaBundle`): an object schema as it is, any other inside one as `result`. Worked
    /// out on first use and kept: a page of `tools/list` describes 100 tools of thousands.
    public var outputSchema: JSONValue? { output.schema }

    /// Whether a result's body is `result` of its structured content (an array, a string).
    public var wrapsResult: Bool { output.wraps }

    private let outputCache = Mutex<(schema: JSONValue?, wraps: Bool)?>(nil)

    private var output: (schema: JSONValue?, wraps: Bool) {
        if let known = outputCache.withLock({ $0 }) { return known }
        var made: (schema: JSONValue?, wraps: Bool) = (nil, false)
        if !isFlow, let schema = ToolCatalog.outputSchema(of: owner.service.targets[index]) { made = schema }
        outputCache.withLock { $0 = made }
        return made
    }

    /// Whether the tool only reads.
    public var isReadOnly: Bool {
        guard let method else { return flowSendsOnlyReads }
        return ToolExposure.readOnlyMethods.contains(method)
    }

    /// Whether the tool may delete.
    public var isDestructive: Bool { method.map { $0 == .delete } ?? flowDeletes }
    /// Whether sending it twice does what sending it once does.
    public var isIdempotent: Bool { method.map { $0 == .put || $0 == .delete || isReadOnly } ?? isReadOnly }
}

/// One service, shared by the descriptors of its tools.
final class ServiceOwner: Sendable {
    let service: ServiceSpec

    init(_ service: ServiceSpec) {
        self.service = service
    }
}

/// Every target and flow of the specs as tools, in a stable order (the services' order, then
/// each one's targets and flows in file order), with the exposure applied.
public struct ToolCatalog: Sendable {
    /// All of them, offered or not.
    public let all: [ToolDescriptor]
    /// The ones offered, in order.
    public let exposed: [ToolDescriptor]
    private let byName: [String: Int]

    /// The longest name MCP clients accept (Claude Desktop, VS Code and OpenAI refuse more).
    public static let nameLimit = 64
    /// The argument that selects part of a JSON body: a dot, which no param's name can hold,
    /// keeps it from clashing with one.
    public static let selectArgument = "moya.select"

    /// The catalog of `services` under `exposure`; `allowsFilesIn` is `--allow-files`, the
    /// folder `file` params may name paths in, else they are not arguments. `reserving` names
    /// more `SERVICE.NAME`s that may be tools, so that a catalog of part of a spec (a preview)
    /// shortens names as the whole spec's does.
    public init(
        services: [ServiceSpec], exposure: ToolExposure, allowsFilesIn folder: String? = nil, reserving: [String] = []
    ) {
        var taken = Set<String>()
        var tools: [ToolDescriptor] = []
        let logins = ToolExposure.logins(of: services)
        let prefixes = Self.prefixes(of: services, reserving: reserving)
        var names: [String] = []
        for full in reserving {
            let service = String(full.prefix { $0 != "." })
            let index = services.firstIndex { $0.name == service }
            let prefix: String = index.map { prefixes[$0] } ?? service
            names.append(prefix + String(full.dropFirst(service.count)))
        }
        for (service, prefix) in zip(services, prefixes) {
            for target in service.targets { names.append(prefix + "." + target.name) }
            for flow in service.flows { names.append(prefix + "." + flow.name) }
        }
        // Names that fit are reserved first, so a shortened one never takes another's.
        for name in names where name.utf8.count <= Self.nameLimit { taken.insert(name) }
        for (service, prefix) in zip(services, prefixes) {
            let owner = ServiceOwner(service)
            for (index, target) in service.targets.enumerated() {
                let full = service.name + "." + target.name
                let method = ToolExposure.method(of: target, in: service)
                tools.append(
                    ToolDescriptor(
                        owner: owner, index: index, isFlow: false,
                        name: Self.toolName(prefix + "." + target.name, taken: &taken), fullName: full,
                        title: target.summary.map(Self.firstLine) ?? full,
                        refusal: exposure.refusal(of: target, in: service, logins: logins, method: method),
                        method: method,
                        filesFolder: folder))
            }
            for (index, flow) in service.flows.enumerated() {
                let full = service.name + "." + flow.name
                let tool = ToolDescriptor(
                    owner: owner, index: index, isFlow: true,
                    name: Self.toolName(prefix + "." + flow.name, taken: &taken),
                    fullName: full,
                    title: flow.summary.map(Self.firstLine) ?? full,
                    refusal: exposure.refusal(of: flow, in: service, services: services, logins: logins), method: nil,
                    filesFolder: folder, flowMethods: Self.methods(of: flow, in: service, services: services))
                tools.append(tool)
            }
        }
        all = tools
        exposed = tools.filter { $0.refusal == nil }
        var byName: [String: Int] = [:]
        for (index, tool) in tools.enumerated() {
            byName[tool.name] = index
            if tool.fullName != tool.name, byName[tool.fullName] == nil { byName[tool.fullName] = index }
        }
        self.byName = byName
    }

    /// The tool a name names, by its tool name or its full name, offered or not.
    public func tool(named name: String) -> ToolDescriptor? {
        byName[name].map { all[$0] }
    }

    /// The exposed tools whose names, titles or descriptions hold every word of `query`,
    /// case aside, best first: those with the words in the name before the rest.
    public func search(_ query: String, limit: Int) -> [ToolDescriptor] {
        let words = query.lowercased().split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        guard !words.isEmpty else { return Array(exposed.prefix(limit)) }
        var named: [ToolDescriptor] = []
        var described: [ToolDescriptor] = []
        for tool in exposed {
            let name = tool.fullName.lowercased()
            let text = name + " " + tool.title.lowercased() + " " + tool.description.lowercased()
            guard words.allSatisfy(text.contains) else { continue }
            if words.allSatisfy(name.contains) { named.append(tool) } else { described.append(tool) }
            if named.count >= limit { break }
        }
        return Array((named + described).prefix(limit))
    }

    // MARK: - Names

    /// What each service's tool names start with: its `mcp.prefix`; else its name, when every
    /// one of its names fits in 64 characters with it; else the longest run of its name's
    /// first words that lets them fit (`spotifyWebAPI…` as `spotifyWebAPI` or `spotify`), so
    /// that a name keeps the whole target name. Unique among the services.
    static func prefixes(of services: [ServiceSpec], reserving: [String]) -> [String] {
        var used = Set<String>()
        var prefixes: [String] = []
        for service in services {
            let own = service.targets.map(\.name) + service.flows.map(\.name)
            let more = reserving.filter { $0.hasPrefix(service.name + ".") }.map {
                String($0.dropFirst(service.name.count + 1))
            }
            let longest = (own + more).map(\.utf8.count).max() ?? 0
            var prefix = service.mcpPrefix ?? service.name
            if service.mcpPrefix == nil, service.name.utf8.count + 1 + longest > nameLimit {
                let words = Self.words(service.name)
                var chosen = words.first ?? service.name
                for count in stride(from: words.count - 1, through: 1, by: -1) {
                    // A prefix does not end on a word that joins others (`…APIWith`).
                    if count > 1, Self.joiningWords.contains(words[count - 1].lowercased()) { continue }
                    let candidate = words.prefix(count).joined()
                    if candidate.utf8.count + 1 + longest <= nameLimit, !used.contains(candidate) {
                        chosen = candidate
                        break
                    }
                }
                prefix = chosen
            }
            prefixes.append(used.takeUnique(prefix))
        }
        return prefixes
    }

    /// Words a shortened prefix does not end on.
    static let joiningWords: Set<String> = [
        "with", "and", "from", "for", "of", "the", "to", "in", "on", "by", "a", "an",
    ]

    /// A camel-case or snake-case name's words: `spotifyWebAPIWith` is `spotify`, `Web`, `API`,
    /// `With`; `_` and `-` stay with the word before them.
    static func words(_ name: String) -> [String] {
        let characters = Array(name)
        var words: [String] = []
        var current = ""
        for (index, character) in characters.enumerated() {
            let previous = index > 0 ? characters[index - 1] : nil
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let startsWord =
                character.isUppercase
                && (previous.map { $0.isLowercase || $0.isNumber } ?? false
                    || (previous?.isUppercase ?? false) && (next?.isLowercase ?? false))
            if startsWord, !current.isEmpty {
                words.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `full` as a tool name: itself when it fits, else its first characters and a hash of
    /// the whole, unique among `taken`.
    static func toolName(_ full: String, taken: inout Set<String>) -> String {
        let clean = String(
            decoding: full.utf8.map { byte in Self.isNameByte(byte) ? byte : UInt8(ascii: "_") }, as: UTF8.self)
        if clean.utf8.count <= nameLimit, clean == full || taken.insert(clean).inserted { return clean }
        var salt: UInt64 = 0
        while true {
            // 54 characters, a dash and 8 hexadecimal digits: 63, under the limit.
            let hash = String(Self.fnv1a(full, salt: salt) & 0xFFFF_FFFF, radix: 16)
            let padded = String(repeating: "0", count: 8 - hash.count) + hash
            let name = String(clean.prefix(54)) + "-" + padded
            if taken.insert(name).inserted { return name }
            salt += 1
        }
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    /// FNV-1a, 64-bit: stable across runs and machines, unlike `Hasher`.
    static func fnv1a(_ text: String, salt: UInt64) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ salt
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    // MARK: - Descriptions

    static func firstLine(_ text: String) -> String {
        String(text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: true).first ?? "")
    }

    /// The summary, the description, then how the target is sent and what it answers. The
    /// path is written as the spec writes it, `{param}` and `${VAR}` by name: never a value.
    /// `fullName` is the tool's `SERVICE.TARGET` when its name is another.
    static func description(of target: TargetSpec, in service: ServiceSpec, fullName: String?) -> String {
        var parts: [String] = []
        if let summary = target.summary { parts.append(summary) }
        if let description = target.description { parts.append(description) }
        var how = "\(target.method.rawValue) \(target.path.description) on the \(service.name) service"
        how += fullName.map { " (\($0))." } ?? "."
        let status = target.sample?.status ?? 200
        var answers = "Answers \(status)"
        if target.schema != nil {
            answers += outputSchema(of: target) != nil ? " with JSON that the output schema describes." : " with JSON."
        } else {
            answers += "."
        }
        parts.append(how + " " + answers)
        return parts.joined(separator: "\n\n")
    }

    /// The summary, then the steps the flow sends.
    static func description(of flow: FlowSpec, in service: ServiceSpec, fullName: String?) -> String {
        var parts: [String] = []
        if let summary = flow.summary { parts.append(summary) }
        let steps = flow.steps.map(\.targetReference).joined(separator: ", ")
        var runs = "A flow of the \(service.name) service"
        if let fullName { runs += " (\(fullName))" }
        runs += ": it calls \(steps) in turn, and answers with each step's outcome."
        parts.append(runs)
        return parts.joined(separator: "\n\n")
    }

    /// The target's `schema:` as an output schema: only an object schema with nothing to
    /// resolve outside itself, in draft 2020-12, since MCP asks for an object schema and
    /// clients validate `structuredContent` against it as it is.
    ///
    /// Its annotations (`description`, `title`, `example`, `examples`, `$comment`,
    /// `deprecated`, `x-…`) are left out: they describe the answer to a reader, not what
    /// validates, and were most of a listing's bytes (Box's first page: 1.56 MB of output
    /// schemas, 0.41 MB without them). A tool's description says what it answers.
    static func outputSchema(of target: TargetSpec) -> (schema: JSONValue, wraps: Bool)? {
        if target.stream != nil { return streamSchema(of: target) }
        guard let spec = target.schema,
            let found = SchemaBundle.bundle(
                spec.schema, uri: spec.uri, documents: spec.documents, dialect: spec.dialect),
            !refersOutside(found), case .object(var members) = withoutAnnotations(found)
        else { return nil }
        let bundled = JSONValue.object(members)
        if bundled["type"] == .string("object") { return (bundled, false) }
        let definitions = members.first { $0.key == "$defs" }?.value
        members.removeAll { $0.key == "$defs" }
        var wrapper: [(key: String, value: JSONValue)] = [
            ("type", .string("object")), ("properties", .object([("result", .object(members))])),
            ("required", .array([.string("result")])),
        ]
        if let definitions { wrapper.append(("$defs", definitions)) }
        return (.object(wrapper), true)
    }

    /// A stream target's output: its events, as `check` reads them, each event's data held to
    /// the target's schema (the per-event one) when it has one a client can use as it is.
    static func streamSchema(of target: TargetSpec) -> (schema: JSONValue, wraps: Bool) {
        var data = JSONValue.object([])
        var definitions: JSONValue?
        if let spec = target.schema,
            let found = SchemaBundle.bundle(
                spec.schema, uri: spec.uri, documents: spec.documents, dialect: spec.dialect),
            !refersOutside(found), case .object(var members) = withoutAnnotations(found)
        {
            definitions = members.first { $0.key == "$defs" }?.value
            members.removeAll { $0.key == "$defs" }
            data = .object(members)
        }
        let text = JSONValue.object([("type", .array([.string("string"), .string("null")]))])
        let event = JSONValue.object([
            ("type", .string("object")),
            (
                "properties",
                .object([
                    ("event", text), ("id", text), ("data", data),
                    ("retry", .object([("type", .string("integer"))])),
                ])
            ),
            ("required", .array([.string("data")])),
        ])
        var wrapper: [(key: String, value: JSONValue)] = [
            ("type", .string("object")),
            ("properties", .object([("result", .object([("type", .string("array")), ("items", event)]))])),
            ("required", .array([.string("result")])),
        ]
        if let definitions { wrapper.append(("$defs", definitions)) }
        return (.object(wrapper), true)
    }

    /// The keywords that only annotate a schema.
    static let annotations: Set<String> = ["description", "title", "example", "examples", "$comment", "deprecated"]
    /// The keywords whose value is a schema, a list of schemas, or schemas by name.
    static let subschema: Set<String> = [
        "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
        "unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems",
    ]
    static let subschemaLists: Set<String> = ["allOf", "anyOf", "oneOf", "prefixItems"]
    static let subschemaMaps: Set<String> = [
        "properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
    ]

    /// `schema` without its annotations, at every depth its keywords reach (the bundle's depth
    /// bounds the walk; past 64 levels a schema is kept as it is).
    static func withoutAnnotations(_ schema: JSONValue, depth: Int = 0) -> JSONValue {
        guard depth < 64, case .object(let members) = schema else { return schema }
        return .object(
            members.compactMap { member -> (key: String, value: JSONValue)? in
                if annotations.contains(member.key) || member.key.hasPrefix("x-") { return nil }
                if subschema.contains(member.key) {
                    return (member.key, withoutAnnotations(member.value, depth: depth + 1))
                }
                if subschemaLists.contains(member.key), case .array(let items) = member.value {
                    return (member.key, .array(items.map { withoutAnnotations($0, depth: depth + 1) }))
                }
                if subschemaMaps.contains(member.key), case .object(let named) = member.value {
                    return (
                        member.key,
                        .object(named.map { ($0.key, withoutAnnotations($0.value, depth: depth + 1)) })
                    )
                }
                return member
            })
    }

    /// Whether a schema has a `$ref` that is not to a place inside itself.
    static func refersOutside(_ value: JSONValue, depth: Int = 0) -> Bool {
        guard depth < 64 else { return true }
        switch value {
        case .object(let members):
            return members.contains { member in
                if member.key == "$ref" || member.key == "$dynamicRef" {
                    guard case .string(let reference) = member.value else { return true }
                    return !reference.hasPrefix("#")
                }
                return refersOutside(member.value, depth: depth + 1)
            }
        case .array(let items): return items.contains { refersOutside($0, depth: depth + 1) }
        default: return false
        }
    }

    /// The methods a flow's steps send.
    static func methods(of flow: FlowSpec, in service: ServiceSpec, services: [ServiceSpec]) -> [Method] {
        (flow.steps + flow.finally).compactMap { step in
            let owner = step.service.flatMap { named in services.first { $0.name == named } } ?? service
            return owner.target(named: step.target).map { ToolExposure.method(of: $0, in: owner) }
        }
    }
}
