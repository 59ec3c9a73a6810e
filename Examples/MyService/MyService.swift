// Moya's Basic Usage target, written as a Moya user writes one, compiled in Swift 5 mode
// against moya-cli's `Moya` module. Nothing here is specific to moya-cli.
import Moya

public enum MyService {
    case zen
    case showUser(id: Int)
    case createUser(firstName: String, lastName: String)
    case updateUser(id: Int, firstName: String, lastName: String)
    case showAccounts
}

extension MyService: TargetType {
    public var baseURL: URL { URL(string: "https://api.myservice.com") ?? URL(fileURLWithPath: "/") }

    public var path: String {
        switch self {
        case .zen:
            return "/zen"
        case .showUser(let id), .updateUser(let id, _, _):
            return "/users/\(id)"
        case .createUser:
            return "/users"
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
        }
    }

    public var task: Task {
        switch self {
        case .zen, .showUser, .showAccounts:
            return .requestPlain
        case let .updateUser(_, firstName, lastName):
            // In the query, whatever the method.
            return .requestParameters(
                parameters: ["first_name": firstName, "last_name": lastName], encoding: URLEncoding.queryString)
        case let .createUser(firstName, lastName):
            // A JSON body.
            return .requestParameters(
                parameters: ["first_name": firstName, "last_name": lastName], encoding: JSONEncoding.default)
        }
    }

    public var sampleData: Data {
        switch self {
        case .zen:
            return "Half measures are as bad as nothing at all.".utf8Encoded
        case .showUser(let id):
            return "{\"id\": \(id), \"first_name\": \"Harry\", \"last_name\": \"Potter\"}".utf8Encoded
        case .createUser(let firstName, let lastName):
            return "{\"id\": 100, \"first_name\": \"\(firstName)\", \"last_name\": \"\(lastName)\"}".utf8Encoded
        case .updateUser(let id, let firstName, let lastName):
            return "{\"id\": \(id), \"first_name\": \"\(firstName)\", \"last_name\": \"\(lastName)\"}".utf8Encoded
        case .showAccounts:
            // From accounts.json, bundled with this target.
            guard let url = Bundle.module.url(forResource: "accounts", withExtension: "json"),
                let data = try? Data(contentsOf: url)
            else {
                return Data()
            }
            return data
        }
    }

    public var headers: [String: String]? {
        return ["Content-type": "application/json"]
    }
}

extension String {
    fileprivate var utf8Encoded: Data { Data(self.utf8) }
}
