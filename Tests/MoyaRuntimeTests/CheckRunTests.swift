import MoyaCompiler
import MoyaCore
import MoyaRuntime
import MoyaSpec
import Synchronization
import XCTest

/// A spec's checks run from Swift, as `moya-cli check --stub immediate` runs them: planned,
/// scheduled on one client, heard as they finish, and reported.
final class CheckRunTests: XCTestCase {
    let spec = """
        service: shop
        baseURL: http://127.0.0.1:9
        targets:
          item:
            path: /items/1
            sample: { json: { id: 1, name: Lamp } }
            schema: { type: object, required: [id, name] }
            checks:
              - { name: ok, expect: { status: 200, schema: true, json: { $.name: { matches: "^L" } } } }
              - { name: wrong, expect: { json: { $.id: 2 } } }
          search:
            path: /search
            params: { q: string }
        """

    func services() throws -> [ServiceSpec] {
        [try SpecCompiler(environment: Environment([:])).compile(Array(spec.utf8), file: "shop.yaml")]
    }

    func testAPlanRunsOnAClientAndIsHeardAsItFinishes() async throws {
        let services = try services()
        let plan = try CheckPlan.make(services: services)
        XCTAssertEqual(plan.map(\.identity).count, 3)
        let client = SpecClient(
            services: services, overrides: CallPolicy.Overrides(stub: .immediate), logins: nil)
        let heard = HeardResults()
        let results = await CheckRunner(client: client, parallel: 2).run(plan) { index, result in
            heard.add(index)
        }
        await client.shutdown()
        XCTAssertEqual(heard.indices.sorted(), [0, 1, 2])
        XCTAssertEqual(results.map(\.outcome), [.passed, .failed, .skipped])
        XCTAssertEqual(results[1].failures.map(\.message), ["expected 2, got 1"])
        XCTAssertEqual(results[2].reason, "no checks, and it needs params: q")

        let summary = CheckSummary(results: results, seconds: 0)
        XCTAssertEqual(summary.line, "3 checks: 1 passed, 1 failed, 1 skipped in 0.000 s")
        let tap = CheckReports.tap(results)
        XCTAssertTrue(tap.hasPrefix("TAP version 14\n1..3\nok 1 - shop.item: ok\nnot ok 2 - shop.item: wrong\n"), tap)
    }

    func testAPatternThatSelectsNothingIsRefused() throws {
        XCTAssertThrowsError(try CheckPlan.make(services: try services(), only: ["shop.nothing*"])) { error in
            XCTAssertEqual("\(error)", "--only 'shop.nothing*' matches no target or flow; see moya-cli list")
        }
        XCTAssertEqual(try CheckPlan.make(services: try services(), only: ["shop.it*"]).count, 2)
        let shards = (1...3).map { try? CheckPlan.make(services: try services(), shard: Shard("\($0)/3")).count }
        XCTAssertEqual(shards.compactMap { $0 }.reduce(0, +), 3)
        XCTAssertNil(Shard("0/3"))
        XCTAssertNil(Shard("4/3"))
    }
}

/// The indices a run reported, from whichever task finished.
final class HeardResults: Sendable {
    private let heard = Mutex<[Int]>([])

    func add(_ index: Int) { heard.withLock { $0.append(index) } }

    var indices: [Int] { heard.withLock { $0 } }
}
