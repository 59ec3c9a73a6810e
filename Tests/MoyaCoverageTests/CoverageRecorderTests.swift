import MoyaCompiler
import MoyaCore
import MoyaCoverage
import MoyaSpec
import TestSupport
import XCTest

/// `CoverageRecorder` and `Coverage` in-process, on the hand-checked spec
/// `Tests/Fixtures/coverage/shop.yaml`: the exchanges of MoyaCLITests' live check run,
/// recorded here, give the same hand-counted figures, from any number of tasks at once.
final class CoverageRecorderTests: XCTestCase {
    func shop() throws -> ServiceSpec {
        try SpecCompiler(environment: Environment(["SHOP_URL": "http://127.0.0.1:9"]))
            .compile(file: Repository.fixtures + "/coverage/shop.yaml")
    }

    /// What the live run sends and gets back (`ShopCoverage.live` says why each counts).
    func recordTheLiveRun(_ recorder: CoverageRecorder) {
        recorder.record(service: "shop", target: "listPets", status: 200, params: ["kind": .string("cat")]) { nil }
        recorder.record(
            service: "shop", target: "listPets", status: 200, params: ["kind": .string("dog"), "limit": .int(2)]
        ) { nil }
        for code in [200, 418, 503] {
            recorder.record(service: "shop", target: "answer", status: code, params: ["code": .int(code)]) { nil }
        }
        recorder.record(service: "shop", target: "addPet", status: 200, params: [:]) {
            try? JSONValue(parsing: #"{"kind": "cat", "name": "Tom", "lives": 9}"#)
        }
    }

    func testTheLiveRunsExchangesGiveTheHandCountedFigures() throws {
        let recorder = CoverageRecorder(services: [try shop()])
        recordTheLiveRun(recorder)
        XCTAssertEqual(recorder.coverage.json, try JSONValue(parsing: ShopCoverage.live))
    }

    func testTheGateCountsExactlyAndNamesTheLargestGaps() throws {
        let recorder = CoverageRecorder(services: [try shop()])
        recordTheLiveRun(recorder)
        let coverage = recorder.coverage
        XCTAssertTrue(coverage.meets(37.5))
        XCTAssertFalse(coverage.meets(37.6))
        XCTAssertNil(coverage.shortfall(below: 37.5))
        XCTAssertEqual(
            coverage.shortfall(below: 50),
            "coverage 37.5% is below --coverage-min 50%: 1 more of 8 declared statuses to cover; most uncovered: "
                + "shop /echo (3), shop /status (1), shop /pets (1)")
    }

    /// Tasks record at once and none is lost; a request no target answered, or one of a
    /// target the recorder was not told of, counts apart; a reload keeps what was counted.
    func testConcurrentRecordsAreCountedOnceEach() async throws {
        let service = try shop()
        let recorder = CoverageRecorder(services: [service])
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for _ in 0..<500 {
                        recorder.record(
                            service: "shop", target: "answer", status: task % 2 == 0 ? 200 : 404,
                            params: ["code": .int(200)]
                        ) { nil }
                    }
                    recorder.record(service: "shop", target: "nowhere", status: 200, params: [:]) { nil }
                    recorder.recordUnmatched()
                }
            }
        }
        recorder.declare([service])
        let coverage = recorder.coverage
        let answer = try XCTUnwrap(coverage.items.first { $0.declared.name == "answer" })
        XCTAssertEqual(answer.calls, 4_000)
        XCTAssertEqual(answer.seen, [200: 2_000, 404: 2_000])
        XCTAssertEqual(coverage.unmatched, 8)
        XCTAssertEqual([coverage.total.targets.covered, coverage.total.targets.total], [1, 4])
        XCTAssertEqual([coverage.total.statuses.covered, coverage.total.statuses.total], [2, 8])
    }
}
