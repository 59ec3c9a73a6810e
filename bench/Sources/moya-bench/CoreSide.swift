import FoundationEssentials
import MoyaCore
import Synchronization

/// The same target for MoyaCore.
private struct Zen: TargetType {
    var baseURL: URL
    var path = "/status/200"
    var method: MoyaCore.Method = .get
    var task: MoyaCore.Task = .requestParameters(
        parameters: ["page": 1, "q": "zen"], encoding: URLEncoding.queryString)
    var headers: [String: String]? = ["Accept": "application/json"]
    var sampleData = Data(#"{"zen":"Half measures are as bad as nothing at all."}"#.utf8)
}

enum CoreSide {
    static func stubbed(_ count: Int) -> Int {
        let provider = MoyaProvider<Zen>(stubClosure: { _ in .immediate })
        let target = Zen(baseURL: URL(fileURLWithPath: "/"))
        let answered = Atomic(0)
        for _ in 0..<count {
            provider.request(target) { result in
                if case .success(let response) = result, response.data.count == 53 {
                    answered.add(1, ordering: .relaxed)
                }
            }
        }
        return answered.load(ordering: .relaxed)
    }

    static func live(_ count: Int, url: String) async -> Int {
        guard let base = URL(string: url) else { return 0 }
        let provider = MoyaProvider<Zen>()
        var answered = 0
        for _ in 0..<count {
            if let response = try? await provider.request(Zen(baseURL: base)), response.statusCode == 200 {
                answered += 1
            }
        }
        await provider.session.shutdown()
        return answered
    }
}
