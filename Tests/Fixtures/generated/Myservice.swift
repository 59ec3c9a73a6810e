// Generated from myservice.yaml by `moya-cli generate swift myservice --access public`.
// Change the spec and generate again rather than editing this file.

import Moya

/// The myservice service, from myservice.yaml.
public enum Myservice: Sendable {
    /// A random zen quote
    case zen

    /// One user by id
    case showUser(id: Int)

    /// Create a user; the body is JSON
    case createUser(firstName: String, lastName: String = "Potter")

    /// Update a user; the parameters go in the query
    case updateUser(id: Int, firstName: String, lastName: String)

    /// Delete a user
    case deleteUser(id: Int)

    /// The signed-in user's accounts
    case showAccounts
}

extension Myservice: TargetType {
    public var baseURL: URL {
        URL(string: Self.environment("MYSERVICE_URL", or: "https://api.myservice.com")) ?? URL(fileURLWithPath: "/")
    }

    public var path: String {
        switch self {
        case .zen:
            return "/zen"
        case .showUser(let id):
            return "/users/\(Self.pathSegment(String(id)))"
        case .createUser:
            return "/users"
        case .updateUser(let id, _, _):
            return "/users/\(Self.pathSegment(String(id)))"
        case .deleteUser(let id):
            return "/users/\(Self.pathSegment(String(id)))"
        case .showAccounts:
            return "/accounts"
        }
    }

    public var method: Moya.Method {
        switch self {
        case .zen, .showUser, .showAccounts:
            return .get
        case .createUser, .updateUser:
            return .post
        case .deleteUser:
            return .delete
        }
    }

    public var task: Task {
        switch self {
        case .zen, .showUser, .deleteUser, .showAccounts:
            return .requestPlain
        case .createUser(let firstName, let lastName):
            return .requestParameters(
                parameters: Self.parameters([("first_name", .string(firstName)), ("last_name", .string(lastName))]),
                encoding: JSONEncoding.default)
        case .updateUser(_, let firstName, let lastName):
            return .requestParameters(
                parameters: Self.parameters([("first_name", .string(firstName)), ("last_name", .string(lastName))]),
                encoding: URLEncoding.queryString)
        }
    }

    public var headers: [String: String]? {
        var headers: [String: String] = [:]
        switch self {
        case .zen:
            headers["Accept"] = "application/json"
        case .showUser, .createUser, .updateUser, .deleteUser, .showAccounts:
            headers["Accept"] = "application/json"
            headers["Authorization"] = Self.given(Self.environment("MYSERVICE_TOKEN", or: "demo-token")).map {
                "Bearer " + $0
            }
        }
        return headers.isEmpty ? nil : headers
    }

    public var validationType: ValidationType { .successCodes }

    public var sampleData: Data {
        switch self {
        case .zen:
            return Data("Half measures are as bad as nothing at all.".utf8)
        case .showUser(let id):
            return Self.data(
                JSONValue.object([
                    (key: "id", value: .integer(id)),
                    (key: "first_name", value: .string("Harry")),
                    (key: "last_name", value: .string("Potter")),
                ]))
        case .createUser(let firstName, let lastName):
            return Self.data(
                JSONValue.object([
                    (key: "id", value: .integer(100)),
                    (key: "first_name", value: .string(firstName)),
                    (key: "last_name", value: .string(lastName)),
                ]))
        case .updateUser(let id, let firstName, let lastName):
            return Self.data(
                JSONValue.object([
                    (key: "id", value: .integer(id)),
                    (key: "first_name", value: .string(firstName)),
                    (key: "last_name", value: .string(lastName)),
                ]))
        case .deleteUser:
            return Data()
        case .showAccounts:
            return Data(
                """
                [
                  { "id": 1, "name": "Checking", "balance": 1250.5 },
                  { "id": 2, "name": "Savings", "balance": 9800 }
                ]

                """.utf8)
        }
    }
}

extension Myservice {
    /// Seconds a request may take, from the spec's `timeout`: Moya's `TargetType` has no
    /// timeout, so add `Myservice.TimeoutPlugin()` to the provider's plugins to apply it.
    public var timeout: TimeInterval? { 30.0 }

    /// Sets each target's `timeout` on its request.
    public struct TimeoutPlugin: PluginType {
        public init() {}

        public func prepare(_ request: URLRequest, target: TargetType) -> URLRequest {
            guard let timeout = (target as? Myservice)?.timeout else { return request }
            var request = request
            request.timeoutInterval = timeout
            return request
        }
    }
}

extension Myservice {
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
}
