// Generated from hostile.yaml by `moya-cli generate swift hostile --access public`.
// Change the spec and generate again rather than editing this file.

import Moya

/// The hostile service, from hostile.yaml.
public enum Hostile: Sendable {
    /// Ends the comment? } func injectedSummary() {}
    case getUser(order: Order = .asc, selfValue: SelfValue, string: StringValue, uId: Int? = nil, uId2: Int? = nil)

    case defaults(
        q: String = Hostile.environment("HOSTILE_Q", or: "cats"),
        n: Int = Int(Hostile.environment("HOSTILE_N", or: "3")) ?? 3,
        label: String = "pre-\(Hostile.environment("HOSTILE_Q", or: "cats"))-post"
    )

    case getUser2

    case pick(verb: Verb)

    case pathTarget

    case prefs(theme: String, lang: String? = nil)

    case search(zeta: String, alpha: Int, limit: Int)

    /// The values of a `Order` param: each case sends its raw value.
    public enum Order: String, CaseIterable, Sendable {
        case created = "+created"
        case created2 = "-created"
        case applicationJson = "application/json"
        case asc = "asc"
        case asc2 = "ASC"
        case xFuncInjectedEnumEvil = "x\n\tfunc injected() {}\n}\nenum Evil {"
        case rawValueValue = "rawValue"
        case value = "\"\"\""
        case boom = "\\(boom)"
        case value2 = "#\""
        case value3 = ""
    }

    /// The values of a `SelfValue` param: each case sends its raw value.
    public enum SelfValue: String, CaseIterable, Sendable {
        case a = "a"
        case b = "b"
    }

    /// The values of a `StringValue` param: each case sends its raw value.
    public enum StringValue: String, CaseIterable, Sendable {
        case c = "c"
        case d = "d"
    }

    /// The values of a `Verb` param: each case sends its raw value.
    public enum Verb: String, CaseIterable, Sendable {
        case get = "GET"
        case post = "POST"
        case urlPath = "URLPath"
    }
}

extension Hostile: TargetType {
    public var baseURL: URL { URL(string: "https://api.example.com") ?? URL(fileURLWithPath: "/") }

    public var path: String {
        switch self {
        case .getUser:
            return "/users"
        case .defaults:
            return "/defaults"
        case .getUser2:
            return "/user"
        case .pick(let verb):
            return "/pick/\(Self.pathSegment(verb.rawValue))"
        case .pathTarget:
            return "/path"
        case .prefs:
            return "/preferences"
        case .search:
            return "/search"
        }
    }

    public var method: Moya.Method {
        switch self {
        case .getUser, .defaults, .getUser2, .pick, .pathTarget, .prefs:
            return .get
        case .search:
            return .post
        }
    }

    public var task: Task {
        switch self {
        case .getUser(let order, let selfValue, let string, let uId, let uId2):
            return .requestParameters(
                parameters: Self.parameters([
                    ("order", .string(order.rawValue)),
                    ("self", .string(selfValue.rawValue)),
                    ("string", .string(string.rawValue)),
                    ("a", uId.map { value -> JSONValue in .integer(value) }),
                    ("b", uId2.map { value -> JSONValue in .integer(value) }),
                ]),
                encoding: URLEncoding.queryString)
        case .defaults(let q, let n, let label):
            return .requestParameters(
                parameters: Self.parameters([("q", .string(q)), ("n", .integer(n)), ("label", .string(label))]),
                encoding: URLEncoding.queryString)
        case .getUser2, .pick, .pathTarget, .prefs:
            return .requestPlain
        case .search(let zeta, let alpha, let limit):
            return .requestCompositeData(
                bodyData: Self.data(
                    JSONValue.object([(key: "zeta", value: .string(zeta)), (key: "alpha", value: .integer(alpha))])),
                urlParameters: Self.parameters([("limit", .integer(limit))]))
        }
    }

    public var headers: [String: String]? {
        var headers: [String: String] = [:]
        switch self {
        case .getUser, .defaults, .getUser2, .pick, .pathTarget:
            break
        case .prefs(let theme, let lang):
            headers["Cookie"] = "seen=1"
            var cookies: [String] = []
            cookies.append(Self.cookie("theme", theme))
            if let value = lang {
                cookies.append(Self.cookie("lang", value))
            }
            if let value = Self.given(Self.environment("HOSTILE_SESSION", or: "")) {
                cookies.append(Self.cookie("SESSION", value))
            }
            if !cookies.isEmpty {
                headers["Cookie"] = ([headers["Cookie"]].compactMap { $0 } + cookies).joined(separator: "; ")
            }
        case .search:
            if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
                headers["Content-Type"] = "application/json"
            }
        }
        return headers.isEmpty ? nil : headers
    }

    public var validationType: ValidationType { .successCodes }

    public var sampleData: Data {
        switch self {
        case .getUser, .defaults, .pick, .prefs, .search:
            return Data()
        case .getUser2:
            return Data(
                """
                four quotes ""\"" and three ""\"
                backslash \\(x) and #"raw"#
                ""\""

                """.utf8)
        case .pathTarget:
            return Data("\"\"\"\"\n\\(x)\n#\"\n".utf8)
        }
    }
}

extension Hostile {
    /// Seconds a request may take, from the spec's `timeout`: Moya's `TargetType` has no
    /// timeout, so add `Hostile.TimeoutPlugin()` to the provider's plugins to apply it.
    public var timeout: TimeInterval? {
        switch self {
        case .getUser, .getUser2, .pick, .pathTarget, .prefs, .search:
            return nil
        case .defaults:
            return 2.5
        }
    }

    /// Sets each target's `timeout` on its request.
    public struct TimeoutPlugin: PluginType {
        public init() {}

        public func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
            guard let timeout = (target as? Hostile)?.timeout else { return request }
            var request = request
            request.timeoutInterval = timeout
            return request
        }
    }
}

extension Hostile {
    /// An environment variable's value when the code runs, or the spec's default.
    public static func environment(_ name: String, or fallback: String) -> String {
        ProcessInfo.processInfo.environment[name] ?? fallback
    }

    /// A value from the environment, or nil when it is empty: a credential not given, which
    /// is left out rather than sent empty.
    static func given(_ value: String) -> String? {
        value.isEmpty ? nil : value
    }

    /// A value as one path segment: all but unreserved characters percent-encoded, and dots
    /// too when it is only dots, so that it can neither add a segment nor climb out of one.
    static func pathSegment(_ value: String) -> String {
        let unreserved = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        if !value.isEmpty, value.allSatisfy({ $0 == "." }) {
            return String(repeating: "%2E", count: value.count)
        }
        return value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    /// Parameters whose values are there; `gathering` collects a repeated key's values.
    static func parameters(_ entries: [(String, JSONValue?)], gathering: Bool = false) -> [String: Any] {
        var parameters: [String: Any] = [:]
        for case let (key, value?) in entries {
            guard gathering, let existing = parameters[key] else {
                parameters[key] = value.parameterValue
                continue
            }
            let added: [Any]
            if case .array(let values) = value {
                added = values.map(\.parameterValue)
            } else {
                added = [value.parameterValue]
            }
            parameters[key] = ((existing as? [Any]) ?? [existing]) + added
        }
        return parameters
    }

    /// A JSON sample's bytes, as moya-cli writes them.
    static func data(_ json: JSONValue) -> Data {
        Data(json.serialized(escapeSlashes: false).utf8)
    }

    /// A cookie's `name=value`, the value percent-encoded past RFC 6265's cookie-octet (and
    /// `%`), as moya-cli sends it.
    static func cookie(_ name: String, _ value: String) -> String {
        let octets = CharacterSet(
            charactersIn: "!#$&'()*+-./0123456789:<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~")
        return name + "=" + (value.addingPercentEncoding(withAllowedCharacters: octets) ?? value)
    }
}
