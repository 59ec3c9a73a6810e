import Foundation
import XCTest

@testable import MoyaOpenAPI

/// A stranger's collection does not make an import do work out of proportion to its size: a
/// request with a hundred thousand copies of one header, a `.http` body of two hundred thousand
/// blank lines, a hundred thousand credential-named headers, each imported in linear work
/// (quadratic work would take hours here).
final class HostileCollectionTests: XCTestCase {
    func testRepeatedHeadersAndCredentials() throws {
        let repeated = (0..<100_000).map { _ in #"{"key": "X-Same", "value": "v"}"# }.joined(separator: ",")
        let credentials = (0..<100_000).map { #"{"key": "X-Token-\#($0)", "value": "t"}"# }.joined(separator: ",")
        let collection = #"""
            {"info": {"name": "Big", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [{"name": "One", "request": {"method": "GET", "url": "https://big.example/a",
                       "header": [\#(repeated), \#(credentials)]}}]}
            """#
        let result = try PostmanImporter.importCollection(Array(collection.utf8), file: "big.json", service: "b")
        XCTAssertEqual(result.report.targets, 1)
        XCTAssertEqual(result.report.variables.count, 100_000)
    }

    func testAHTTPFileOfBlankLines() {
        let text = "POST https://big.example/a\n\n" + String(repeating: "\n", count: 200_000) + "body\n"
        let result = HTTPFileImporter.importText(text, file: "big.http", service: "b")
        XCTAssertEqual(result.report.targets, 1)
    }
}
