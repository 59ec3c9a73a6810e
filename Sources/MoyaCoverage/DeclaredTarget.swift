import MoyaJSON
import MoyaSpec

/// What one target declares, as coverage counts it: the cells of its row in the operation ×
/// status matrix, its params, the values of its enums and the branches of its request body.
public struct DeclaredTarget: Sendable {
    /// One value of an enum: a param's case, or a request body member's.
    public struct EnumValue: Sendable {
        /// Where the enum is: `param`, or `body` for a member of the request body.
        public var place: String
        /// The param's or member's name.
        public var name: String
        /// The value as coverage shows it: the case's key for a param (never the value,
        /// which may read the environment), the schema's value for a body member, which a
        /// sent member is compared with.
        public var shown: JSONValue
        /// A param's case as sent, which `paramCases` finds it by; nil for a body member.
        var sent: String? = nil
    }

    /// One `oneOf` branch of the request body's schema.
    public struct BodyBranch: Sendable {
        /// The branch's `title`, else the name its `$ref` ends with, else its position.
        public var label: String
        /// The branch, compiled on first use, which a sent body is held to.
        let schema: SchemaSpec
    }

    /// The service's name.
    public var service: String
    /// The target's name.
    public var name: String
    /// The HTTP method.
    public var method: String
    /// The path as written, `{param}` and all.
    public var path: String
    /// What the matrix groups it under: the path's first segment.
    public var group: String
    /// The responses it declares, by `ResponseKey`, in the order its samples give them.
    public var statuses: [String]
    /// Its params' names, in declared order.
    public var params: [String]
    /// Every value of its enums, params' first.
    public var enumValues: [EnumValue]
    /// The `oneOf` branches of its request body.
    public var bodyBranches: [BodyBranch]

    /// The positions in `enumValues` of each param's cases, by param and by the text sent:
    /// a value sent is looked up, never compared with each case in turn, so a request of many
    /// values against an enum of many cases is tallied in linear time.
    let paramCases: [String: [String: [Int]]]

    /// Whether a sent body must be read to count this target's figures.
    var readsBody: Bool {
        !bodyBranches.isEmpty || enumValues.contains { $0.place == "body" }
    }

    /// What `target` of `service` declares.
    public init(_ target: TargetSpec, of service: ServiceSpec) {
        self.service = service.name
        name = target.name
        method = target.method.rawValue
        path = target.path.description
        group = Self.group(of: path)
        statuses = Self.statuses(of: target)
        params = target.params.map(\.name)
        enumValues = Self.paramEnums(of: target)
        bodyBranches = []
        if let body = target.requestSchema, let shape = BodyShape(body) {
            enumValues += shape.memberEnums()
            bodyBranches = shape.branches()
        }
        var cases: [String: [String: [Int]]] = [:]
        for (position, value) in enumValues.enumerated() {
            guard value.place == "param", let text = value.sent else { continue }
            cases[value.name, default: [:]][text, default: []].append(position)
        }
        paramCases = cases
    }

    /// `qualifiedName`: `SERVICE.TARGET`.
    public var qualifiedName: String { service + "." + name }

    /// The responses `target` declares: its default sample's (200 when it has none, as its
    /// stub answers), and each named sample's, a sample of a range or of `default` by that
    /// key (`ResponseKey`). A response schema belongs to a sample, so it adds none.
    static func statuses(of target: TargetSpec) -> [String] {
        var keys: [String] = []
        func add(_ key: String) { if !keys.contains(key) { keys.append(key) } }
        switch target.sample {
        case nil: add("200")
        case .response(let status, _, _)?: add(String(status))
        case .error?: break
        }
        for (name, sample) in target.samples {
            guard let status = sample.status else { continue }
            add(ResponseKey.key(ofSample: name, status: status))
        }
        return keys
    }

    /// Each case of each enum param, arrays of enums included.
    static func paramEnums(of target: TargetSpec) -> [EnumValue] {
        target.params.flatMap { param -> [EnumValue] in
            guard case .enumeration(let cases) = param.elementType else { return [] }
            return cases.map { EnumValue(place: "param", name: param.name, shown: .string($0.key), sent: $0.value) }
        }
    }

    /// `/pets` for `/pets/{id}`; `/` for a path with no literal first segment.
    static func group(of path: String) -> String {
        let first = path.split(separator: "/").first.map(String.init) ?? ""
        guard !first.isEmpty, !first.hasPrefix("{") else { return "/" }
        return "/" + first
    }
}
