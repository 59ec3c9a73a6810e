// Generated from translator.yaml by `moya-cli generate swift translator --access public`.
// Change the spec and generate again rather than editing this file.

import Moya

/// The translator service, from translator.yaml.
public enum Translator: Sendable {
    /// The languages the translator supports
    case languages

    /// Translate texts from one language into several
    case translate(texts: [String])

    /// The same request with its query in Microya's declared order
    case translateQuery(from: From = .english, to: [String])

    /// The values of a `From` param: each case sends its raw value.
    public enum From: String, CaseIterable, Sendable {
        case english = "en"
        case german = "de"
        case japanese = "ja"
        case turkish = "tr"
    }
}

extension Translator: TargetType {
    public var baseURL: URL {
        let base = URL(string: "https://api.cognitive.microsofttranslator.com") ?? URL(fileURLWithPath: "/")
        switch self {
        case .translateQuery(let from, let to):
            return Self.appending(
                Self.parameters(
                    [
                        ("api-version", .string("3.0")),
                        ("from", .string(from.rawValue)),
                        ("to", .array(to.map { .string($0) })),
                    ],
                    gathering: true),
                keys: ["api-version", "from", "to"],
                to: base)
        default:
            return base
        }
    }

    public var path: String {
        switch self {
        case .languages:
            return "/languages"
        case .translate, .translateQuery:
            return "/translate"
        }
    }

    public var method: Moya.Method {
        switch self {
        case .languages:
            return .get
        case .translate, .translateQuery:
            return .post
        }
    }

    public var task: Task {
        switch self {
        case .languages:
            return .requestParameters(
                parameters: Self.parameters([("api-version", .string("3.0"))], gathering: true),
                encoding: InOrder(keys: ["api-version"]))
        case .translate(let texts):
            return .requestJSONEncodable(JSONValue.array(texts.map { .string($0) }))
        case .translateQuery:
            return .requestCompositeData(bodyData: Data("[]".utf8), urlParameters: [:])
        }
    }

    public var headers: [String: String]? {
        var headers: [String: String] = [:]
        switch self {
        case .languages:
            headers["Ocp-Apim-Subscription-Key"] = Self.given(Self.environment("TRANSLATOR_KEY", or: ""))
        case .translate:
            headers["Ocp-Apim-Subscription-Key"] = Self.given(Self.environment("TRANSLATOR_KEY", or: ""))
            headers["Content-Type"] = "application/json"
        case .translateQuery:
            headers["Ocp-Apim-Subscription-Key"] = Self.given(Self.environment("TRANSLATOR_KEY", or: ""))
            if !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
                headers["Content-Type"] = "application/json"
            }
        }
        return headers.isEmpty ? nil : headers
    }

    public var validationType: ValidationType { .successCodes }

    public var sampleData: Data {
        switch self {
        case .languages:
            return Self.data(
                JSONValue.object([
                    (
                        key: "translation",
                        value: .object([
                            (key: "de", value: .object([(key: "name", value: .string("German"))])),
                            (key: "en", value: .object([(key: "name", value: .string("English"))])),
                        ])
                    )
                ]))
        case .translate:
            return Self.data(
                JSONValue.array([
                    .object([
                        (
                            key: "translations",
                            value: .array([
                                .object([(key: "text", value: .string("Test")), (key: "to", value: .string("de"))])
                            ])
                        )
                    ])
                ]))
        case .translateQuery:
            return Data()
        }
    }
}

extension Translator {
    /// An environment variable's value when the code runs, or the spec's default.
    public static func environment(_ name: String, or fallback: String) -> String {
        ProcessInfo.processInfo.environment[name] ?? fallback
    }

    /// A value from the environment, or nil when it is empty: a credential not given, which
    /// is left out rather than sent empty.
    static func given(_ value: String) -> String? {
        value.isEmpty ? nil : value
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

    /// `url` with parameters added to its query in the order of `keys`, booleans as words.
    static func appending(_ parameters: [String: Any], keys: [String], to url: URL) -> URL {
        let encoding = InOrder(keys: keys, boolEncoding: .literal)
        let request = try? encoding.encode(URLRequest(url: url), with: parameters)
        return request?.url ?? url
    }

    /// Puts parameters in the query, or in a form body, in the order the spec declares them,
    /// a repeated key once for each of its values.
    public struct InOrder: ParameterEncoding {
        /// The keys, in order.
        public var keys: [String]
        /// Whether the pairs go in a form body instead of the query.
        public var inBody = false
        /// How booleans are written.
        public var boolEncoding = URLEncoding.BoolEncoding.numeric

        public func encode(_ urlRequest: URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
            var request = try urlRequest.asURLRequest()
            guard let parameters else { return request }
            let pairs = URLEncoding(destination: .queryString, arrayEncoding: .noBrackets, boolEncoding: boolEncoding)
            let start = inBody ? nil : request.url
            var scratch = URLRequest(url: start ?? URL(fileURLWithPath: "/"))
            for key in keys {
                if let value = parameters[key] { scratch = try pairs.encode(scratch, with: [key: value]) }
            }
            guard inBody else {
                request.url = scratch.url
                return request
            }
            let query = scratch.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                let form = "application/x-www-form-urlencoded; charset=utf-8"
                request.setValue(form, forHTTPHeaderField: "Content-Type")
            }
            request.httpBody = Data((query?.percentEncodedQuery ?? "").utf8)
            return request
        }
    }
}
