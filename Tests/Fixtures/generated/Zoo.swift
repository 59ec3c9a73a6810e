// Generated from zoo.yaml by `moya-cli generate swift zoo --access public`.
// Change the spec and generate again rather than editing this file.

import Moya

/// The zoo service, from zoo.yaml.
public enum Zoo: Sendable {
    /// One pet.
    case showPet(id: Int)

    case listAnimals

    case puppy

    case labels

    case createPet(name: String, status: Status)

    case ping

    /// The values of a `Status` param: each case sends its raw value.
    public enum Status: String, CaseIterable, Sendable {
        case available = "available"
        case onLoan = "on-loan"
        case retired = "retired"
    }
}

extension Zoo: TargetType {
    public var baseURL: URL {
        URL(string: Self.environment("ZOO_URL", or: "http://127.0.0.1:9")) ?? URL(fileURLWithPath: "/")
    }

    public var path: String {
        switch self {
        case .showPet(let id):
            return "/pets/\(Self.pathSegment(String(id)))"
        case .listAnimals:
            return "/animals"
        case .puppy:
            return "/puppy"
        case .labels:
            return "/labels"
        case .createPet:
            return "/pets"
        case .ping:
            return "/ping"
        }
    }

    public var method: Moya.Method {
        switch self {
        case .showPet, .listAnimals, .puppy, .labels, .ping:
            return .get
        case .createPet:
            return .post
        }
    }

    public var task: Task {
        switch self {
        case .showPet, .listAnimals, .puppy, .labels, .ping:
            return .requestPlain
        case .createPet(let name, let status):
            return .requestJSONEncodable(
                JSONValue.object([
                    (key: "name", value: .string(name)),
                    (key: "status", value: .string(status.rawValue)),
                ]))
        }
    }

    public var headers: [String: String]? { nil }

    public var validationType: ValidationType { .successCodes }

    public var sampleData: Data {
        switch self {
        case .showPet:
            return Self.data(
                JSONValue.object([
                    (key: "id", value: .integer(1)),
                    (key: "name", value: .string("Rex")),
                    (key: "status", value: .string("on-loan")),
                    (key: "birth_date", value: .null),
                    (key: "tags", value: .array([.string("brave"), .string("loud")])),
                    (key: "weights", value: .object([(key: "2025", value: .number(4.5))])),
                    (
                        key: "extra",
                        value: .object([(key: "vet", value: .array([.integer(1), .string("two"), .bool(true)]))])
                    ),
                    (
                        key: "keeper",
                        value: .object([
                            (key: "name", value: .string("Ann")),
                            (
                                key: "manager",
                                value: .object([
                                    (key: "name", value: .string("Bea")),
                                    (key: "reports", value: .array([.object([(key: "name", value: .string("Cy"))])])),
                                ])
                            ),
                        ])
                    ),
                    (key: "self", value: .string("/pets/1")),
                    (key: "default", value: .bool(true)),
                ]))
        case .listAnimals:
            return Self.data(
                JSONValue.array([
                    .object([(key: "kind", value: .string("cat")), (key: "lives", value: .integer(9))]),
                    .object([(key: "kind", value: .string("dog")), (key: "good", value: .bool(true))]),
                    .object([(key: "kind", value: .string("dog"))]),
                ]))
        case .puppy:
            return Self.data(
                JSONValue.object([(key: "kind", value: .string("dog")), (key: "age_weeks", value: .integer(8))]))
        case .labels:
            return Self.data(
                JSONValue.object([
                    (key: "labels", value: .array([.string("a"), .integer(2), .null])),
                    (key: "status", value: .string("retired")),
                ]))
        case .createPet(let name, let status):
            return Self.data(
                JSONValue.object([
                    (key: "id", value: .integer(2)),
                    (key: "name", value: .string(name)),
                    (key: "status", value: .string(status.rawValue)),
                ]))
        case .ping:
            return Data("pong".utf8)
        }
    }
}

extension Zoo {
    /// An environment variable's value when the code runs, or the spec's default.
    public static func environment(_ name: String, or fallback: String) -> String {
        ProcessInfo.processInfo.environment[name] ?? fallback
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

    /// A JSON sample's bytes, as moya-cli writes them.
    static func data(_ json: JSONValue) -> Data {
        Data(json.serialized(escapeSlashes: false).utf8)
    }
}

// MARK: - Models

extension Zoo {
    /// A pet in the zoo.
    public struct Pet: Codable, Hashable, Sendable {
        public var id: Int
        public var name: String
        public var status: StatusModel
        public var birthDate: String?
        public var tags: [String]?
        public var weights: [String: Double]?
        /// Anything the keeper notes.
        public var extra: JSONValue?
        public var keeper: Person?
        /// The pet's own URL.
        public var selfValue: String?
        public var `default`: Bool?

        public init(
            id: Int,
            name: String,
            status: StatusModel,
            birthDate: String? = nil,
            tags: [String]? = nil,
            weights: [String: Double]? = nil,
            extra: JSONValue? = nil,
            keeper: Person? = nil,
            selfValue: String? = nil,
            `default`: Bool? = nil
        ) {
            self.id = id
            self.name = name
            self.status = status
            self.birthDate = birthDate
            self.tags = tags
            self.weights = weights
            self.extra = extra
            self.keeper = keeper
            self.selfValue = selfValue
            self.default = `default`
        }

        enum CodingKeys: String, CodingKey {
            case id
            case name
            case status
            case birthDate = "birth_date"
            case tags
            case weights
            case extra
            case keeper
            case selfValue = "self"
            case `default`
        }
    }

    public enum StatusModel: Codable, Hashable, Sendable, RawRepresentable {
        case available
        case onLoan
        case retired
        /// A value the description did not list when this file was generated.
        case unknown(String)

        public init(rawValue: String) {
            switch rawValue {
            case "available":
                self = .available
            case "on-loan":
                self = .onLoan
            case "retired":
                self = .retired
            default:
                self = .unknown(rawValue)
            }
        }

        public var rawValue: String {
            switch self {
            case .available:
                "available"
            case .onLoan:
                "on-loan"
            case .retired:
                "retired"
            case .unknown(let value):
                value
            }
        }

        public init(from decoder: any Decoder) throws {
            self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }

    public struct Person: Codable, Hashable, Sendable {
        public var name: String
        public var manager: Person? {
            get { _manager?.value }
            set { _manager = newValue.map(Indirect.init) }
        }
        private var _manager: Indirect<Person>?
        public var reports: [Person]?

        public init(name: String, manager: Person? = nil, reports: [Person]? = nil) {
            self.name = name
            self._manager = manager.map(Indirect.init)
            self.reports = reports
        }

        enum CodingKeys: String, CodingKey {
            case name
            case _manager = "manager"
            case reports
        }
    }

    /// A name the generated code uses, taken by a component.
    public struct ResponseModel: Codable, Hashable, Sendable {
        public var message: String?

        public init(message: String? = nil) {
            self.message = message
        }
    }

    public indirect enum Animal: Codable, Hashable, Sendable {
        case cat(Cat)
        case dog(Dog)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            let keyed = try? decoder.container(keyedBy: ModelKey.self)
            switch try? keyed?.decode(String.self, forKey: ModelKey("kind")) {
            case "cat"?:
                self = .cat(try container.decode(Cat.self))
                return
            case "dog"?:
                self = .dog(try container.decode(Dog.self))
                return
            default:
                break
            }
            if let value = try? container.decode(Cat.self) {
                self = .cat(value)
            } else if let value = try? container.decode(Dog.self) {
                self = .dog(value)
            } else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "matches none of Animal's schemas")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .cat(let value):
                try container.encode(value)
            case .dog(let value):
                try container.encode(value)
            }
        }
    }

    public struct Cat: Codable, Hashable, Sendable {
        public var kind: String
        public var lives: Int

        public init(kind: String, lives: Int) {
            self.kind = kind
            self.lives = lives
        }
    }

    public struct Dog: Codable, Hashable, Sendable {
        public var kind: String
        public var good: Bool?

        public init(kind: String, good: Bool? = nil) {
            self.kind = kind
            self.good = good
        }
    }

    public struct Puppy: Codable, Hashable, Sendable {
        public var kind: String
        public var good: Bool?
        public var ageWeeks: Int

        public init(kind: String, good: Bool? = nil, ageWeeks: Int) {
            self.kind = kind
            self.good = good
            self.ageWeeks = ageWeeks
        }

        enum CodingKeys: String, CodingKey {
            case kind
            case good
            case ageWeeks = "age_weeks"
        }
    }

    public struct LabelsResponse: Codable, Hashable, Sendable {
        public var labels: [Label?]?
        public var status: StatusModel?

        public init(labels: [Label?]? = nil, status: StatusModel? = nil) {
            self.labels = labels
            self.status = status
        }
    }

    public indirect enum Label: Codable, Hashable, Sendable {
        case string(String)
        case integer(Int)

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode(Int.self) {
                self = .integer(value)
            } else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "matches none of Label's schemas")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value):
                try container.encode(value)
            case .integer(let value):
                try container.encode(value)
            }
        }
    }

    public struct CreatePetRequest: Codable, Hashable, Sendable {
        public var name: String
        public var status: StatusModel

        public init(name: String, status: StatusModel) {
            self.name = name
            self.status = status
        }
    }

    /// A value stored apart, so that a struct may contain itself.
    public final class Indirect<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {
        public let value: Value

        public init(_ value: Value) {
            self.value = value
        }

        public init(from decoder: any Decoder) throws {
            value = try decoder.singleValueContainer().decode(Value.self)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }

        public static func == (lhs: Indirect, rhs: Indirect) -> Bool {
            lhs.value == rhs.value
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(value)
        }
    }

    /// A JSON member's name, for reading a discriminator.
    struct ModelKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(_ name: String) {
            stringValue = name
        }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }
}

extension Zoo {
    /// A target and the type its response decodes to. `provider.request(.showPet(…))`
    /// where a value of that type is expected sends the target and decodes its response;
    /// elsewhere it is the target itself, and the plain `Response` comes back.
    public struct Call<Success: Sendable>: Sendable {
        public let target: Zoo
        public let decode: @Sendable (Response) throws -> Success

        public init(target: Zoo, decode: @escaping @Sendable (Response) throws -> Success) {
            self.target = target
            self.decode = decode
        }

        /// Decodes a response's body as JSON.
        public static func json<Value: Decodable & Sendable>(
            _ type: Value.Type
        ) -> @Sendable (Response) throws -> Value {
            { response in try JSONDecoder().decode(Value.self, from: response.data) }
        }
    }
}

extension Zoo.Call where Success == Zoo.Pet {
    /// One pet.
    public static func showPet(id: Int) -> Self {
        Self(target: .showPet(id: id), decode: Self.json(Zoo.Pet.self))
    }

    public static func createPet(name: String, status: Zoo.Status) -> Self {
        Self(target: .createPet(name: name, status: status), decode: Self.json(Zoo.Pet.self))
    }
}

extension Zoo.Call where Success == [Zoo.Animal] {
    public static func listAnimals() -> Self {
        Self(target: .listAnimals, decode: Self.json([Zoo.Animal].self))
    }
}

extension Zoo.Call where Success == Zoo.Puppy {
    public static func puppy() -> Self {
        Self(target: .puppy, decode: Self.json(Zoo.Puppy.self))
    }
}

extension Zoo.Call where Success == Zoo.LabelsResponse {
    public static func labels() -> Self {
        Self(target: .labels, decode: Self.json(Zoo.LabelsResponse.self))
    }
}

extension MoyaProvider where Target == Zoo {
    /// Sends `call`'s target and decodes its response; a body that does not decode is
    /// `MoyaError.objectMapping`.
    public func request<Success>(_ call: Zoo.Call<Success>) async throws(MoyaError) -> Success {
        let response = try await request(call.target)
        do {
            return try call.decode(response)
        } catch {
            throw MoyaError.objectMapping(error, response)
        }
    }
}
