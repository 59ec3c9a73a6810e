import Foundation
import MoyaCompiler
import TestSupport
import XCTest

@testable import MoyaOpenAPI

/// `import http` on httpyac's 300 example files: each file's requests, counted by a separate
/// reader of the `.http` spec's separators (Python: a `###` region with a line that is no
/// comment, variable, script or assertion), are targets or lines of the report; at least 95 %
/// of the HTTP requests are targets; every spec compiles.
final class HTTPFileImporterTests: XCTestCase {
    func testHttpyacsExamples() throws {
        let shared = try Repository.shared("collections", variable: "MOYA_COLLECTIONS")
        let root = shared + "/httpyac"
        let script = #"""
            import json, os, sys
            counts = {}
            for folder, _, names in os.walk(sys.argv[1]):
                for name in names:
                    if not name.endswith('.http'): continue
                    path = os.path.join(folder, name)
                    regions, current, script = [], [], None
                    for line in open(path, encoding='utf-8').read().split('\n'):
                        text = line.strip()
                        if script:
                            if text.endswith(script): script = None
                            continue
                        if text.startswith('###'):
                            regions.append(current); current = []
                        elif text.startswith('{{') and '}}' not in text:
                            script = '}}'
                        elif text.startswith(('> {%', '< {%')) and not text.endswith('%}'):
                            script = '%}'
                        else:
                            current.append(text)
                    regions.append(current)
                    skip = ('#', '//', '@', '{{', '{%', '<', '>', '??', '%}', '}}')
                    counts[os.path.relpath(path, sys.argv[1])] = sum(
                        1 for region in regions if any(l and not l.startswith(skip) for l in region))
            print(json.dumps(counts))
            """#
        try Repository.requirePrograms(["python3"])
        let run = try Launch.run(Launch.onPath("python3").0, ["python3", "-c", script, root], environment: nil)
        let parsed = try? JSONSerialization.jsonObject(with: Data(run.out.utf8))
        let counts = try XCTUnwrap(parsed as? [String: Int], run.error)
        XCTAssertEqual(counts.count, 300)
        var requests = 0
        var notHTTP = 0
        var targets = 0
        for (file, count) in counts.sorted(by: { $0.key < $1.key }) {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            let result = HTTPFileImporter.importText(text, file: file, service: "h")
            let dropped = result.report.notCarried.filter { $0.what == "request" }
            XCTAssertGreaterThanOrEqual(result.report.targets + dropped.count, count, "\(file): \(result.report.lines)")
            requests += result.report.requests
            notHTTP += dropped.filter { $0.reason.contains("is not HTTP") }.count
            targets += result.report.targets
            guard result.report.targets > 0 else { continue }
            var compiler = SpecCompiler(environment: .none)
            compiler.fileRoot = "/"
            XCTAssertNoThrow(try compiler.compile(Array(result.spec.utf8), file: "h.yaml"), "\(file):\n\(result.spec)")
        }
        // Of the HTTP requests (gRPC, AMQP, MQTT, WebSocket, SSE and Kafka ones are reported),
        // at least 95 % are targets.
        XCTAssertGreaterThanOrEqual(
            Double(targets), 0.95 * Double(requests - notHTTP), "\(targets) of \(requests - notHTTP)")
        print("import http on httpyac's examples: \(requests) requests, \(notHTTP) not HTTP, \(targets) targets")
    }
}
