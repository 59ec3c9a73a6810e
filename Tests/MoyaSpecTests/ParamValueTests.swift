import MoyaCompiler
import MoyaCore
import MoyaSpec
import XCTest

/// A flow's JSON value becomes a typed param value directly: numbers and booleans stay typed,
/// arrays fill array params, and only text is parsed.
final class ParamValueTests: XCTestCase {
    func testJSONValuesBecomeTypedParamValues() throws {
        let file = NSTemporaryDirectory() + "params-\(getpid()).yaml"
        try """
        service: p
        baseURL: https://x.test
        targets:
          t:
            path: /t
            params:
              id: int
              ratio: number
              on: bool
              name: string
              ids: "[int]"
              kind: { enum: { small: s, large: l } }
        """.write(toFile: file, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: file) }
        let target = try XCTUnwrap(try SpecCompiler(environment: [:]).compile(file: file).target(named: "t"))
        func value(_ name: String, _ json: JSONValue) throws -> ParamValue {
            try XCTUnwrap(target.param(named: name)).value(from: json)
        }
        XCTAssertEqual(try value("id", .integer(7)), .int(7))
        XCTAssertEqual(try value("id", .string("7")), .int(7))
        XCTAssertEqual(try value("id", .array([.integer(7)])), .int(7))
        XCTAssertEqual(try value("ratio", .integer(2)), .number(2))
        XCTAssertEqual(try value("ratio", .number(0.5)), .number(0.5))
        XCTAssertEqual(try value("on", .bool(false)), .bool(false))
        XCTAssertEqual(try value("on", .string("yes")), .bool(true))
        XCTAssertEqual(try value("name", .integer(100)), .string("100"))
        XCTAssertEqual(try value("name", .object([(key: "a", value: .integer(1))])), .string(#"{"a":1}"#))
        XCTAssertEqual(try value("ids", .array([.integer(1), .string("2")])), .array([.int(1), .int(2)]))
        XCTAssertEqual(try value("ids", .integer(3)), .array([.int(3)]))
        XCTAssertEqual(try value("kind", .string("large")), .string("l"))
        XCTAssertThrowsError(try value("id", .bool(true)))
        XCTAssertThrowsError(try value("id", .array([.integer(1), .integer(2)])))
        XCTAssertThrowsError(try value("kind", .string("medium")))
    }
}
