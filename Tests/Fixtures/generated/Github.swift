// Generated from github.yaml by `moya-cli generate swift github --access public`.
// Change the spec and generate again rather than editing this file.

import Moya

/// The github service, from github.yaml.
public enum Github: Sendable {
    /// A random line of GitHub zen
    case zen

    /// A user's public profile
    case userProfile(name: String)

    /// A user's public repositories, newest first
    case userRepositories(name: String, perPage: Int = 30)
}

extension Github: TargetType {
    public var baseURL: URL { URL(string: "https://api.github.com") ?? URL(fileURLWithPath: "/") }

    public var path: String {
        switch self {
        case .zen:
            return "/zen"
        case .userProfile(let name):
            return "/users/\(Self.pathSegment(name))"
        case .userRepositories(let name, _):
            return "/users/\(Self.pathSegment(name))/repos"
        }
    }

    public var method: Moya.Method {
        switch self {
        case .zen, .userProfile, .userRepositories:
            return .get
        }
    }

    public var task: Task {
        switch self {
        case .zen, .userProfile:
            return .requestPlain
        case .userRepositories(_, let perPage):
            return .requestParameters(
                parameters: Self.parameters([("sort", .string("pushed")), ("per_page", .integer(perPage))]),
                encoding: URLEncoding.default)
        }
    }

    public var headers: [String: String]? {
        var headers: [String: String] = [:]
        switch self {
        case .zen:
            headers["Accept"] = "application/vnd.github+json"
            headers["User-Agent"] = "moya-cli"
        case .userProfile, .userRepositories:
            headers["Accept"] = "application/vnd.github+json"
            headers["User-Agent"] = "moya-cli"
            headers["Authorization"] = Self.given(Self.environment("GITHUB_TOKEN", or: "")).map { "Bearer " + $0 }
        }
        return headers.isEmpty ? nil : headers
    }

    public var validationType: ValidationType { .successCodes }

    public var sampleData: Data {
        switch self {
        case .zen:
            return Data("Practicality beats purity.".utf8)
        case .userProfile(let name):
            return Self.data(
                JSONValue.object([
                    (key: "login", value: .string(name)),
                    (key: "id", value: .integer(100)),
                    (key: "name", value: .string("Harry Potter")),
                    (key: "public_repos", value: .integer(3)),
                ]))
        case .userRepositories(let name, _):
            return Self.data(
                JSONValue.array([
                    .object([
                        (key: "name", value: .string("Repo Name")),
                        (key: "full_name", value: .string("\(name)/Repo Name")),
                    ])
                ]))
        }
    }
}

extension Github {
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
