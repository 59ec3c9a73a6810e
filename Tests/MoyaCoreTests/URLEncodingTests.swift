import Foundation
import MoyaCore
import XCTest

/// Alamofire's URL encoding, byte for byte.
final class URLEncodingTests: XCTestCase {
    let url = URL(string: "https://example.com/")!

    func query(_ parameters: Parameters, _ encoding: URLEncoding = .default) throws -> String? {
        try encoding.encode(Request(url: url), with: parameters).url.query
    }

    func testEscapingAndOrdering() throws {
        let cases: [(Parameters, URLEncoding, String)] = [
            (["foo": "bar", "baz": "qux"], .default, "baz=qux&foo=bar"),
            (["foo": ["a", 1, true] as [any Sendable]], .default, "foo%5B%5D=a&foo%5B%5D=1&foo%5B%5D=1"),
            (["foo": ["a", 1, true] as [any Sendable]], URLEncoding(arrayEncoding: .noBrackets), "foo=a&foo=1&foo=1"),
            (["foo": ["a", "b"]], URLEncoding(arrayEncoding: .indexInBrackets), "foo%5B0%5D=a&foo%5B1%5D=b"),
            (["foo": ["bar": 1]], .default, "foo%5Bbar%5D=1"),
            (["+foo+": "+bar+"], .default, "%2Bfoo%2B=%2Bbar%2B"),
            (["name": "français"], .default, "name=fran%C3%A7ais"),
            (["a": "b c"], .default, "a=b%20c"),
            (["a": "-._~/?:#[]@!$&'()*,;="], .default, "a=-._~/?%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2C%3B%3D"),
            (["flag": true], .default, "flag=1"),
            (["flag": true], URLEncoding(boolEncoding: .literal), "flag=true"),
            (["z": 1, "a": 2], URLEncoding(keyOrder: ["z", "a"]), "z=1&a=2"),
            // A `JSONValue` is encoded as its parameter form would be, with no detour through `Any`.
            (
                ["foo": JSONValue.array([.string("a"), .integer(1), .bool(true)])], .default,
                "foo%5B%5D=a&foo%5B%5D=1&foo%5B%5D=1"
            ),
            (
                ["foo": JSONValue.object([(key: "z", value: .number(0.5)), (key: "a", value: .null)])], .default,
                "foo%5Bz%5D=0.5"
            ),
            (
                ["foo": JSONValue.object([(key: "z", value: .integer(1)), (key: "a", value: .string("b c"))])],
                .default, "foo%5Ba%5D=b%20c&foo%5Bz%5D=1"
            ),
            (["flag": JSONValue.bool(false)], URLEncoding(boolEncoding: .literal), "flag=false"),
            (["gone": JSONValue.null, "kept": JSONValue.string("")], .default, "kept="),
        ]
        for (parameters, encoding, expected) in cases {
            XCTAssertEqual(try query(parameters, encoding), expected)
        }
    }

    func testQueryIsAppendedAfterAnExistingQuery() throws {
        let request = Request(url: URL(string: "http://example.com/123/somepath?X-ABC-Asd=123")!)
        let encoded = try URLEncoding.default.encode(request, with: ["key": "value"])
        XCTAssertEqual(encoded.url.absoluteString, "http://example.com/123/somepath?X-ABC-Asd=123&key=value")
        XCTAssertEqual(try URLEncoding.default.encode(request, with: [:]).url, request.url)
    }

    func testPostPutsAFormBodyAndSetsTheContentTypeOnlyIfAbsent() throws {
        let post = try URLEncoding.default.encode(Request(url: url, method: .post), with: ["foo": 1, "bar": 2])
        XCTAssertEqual(post.httpBody.map { String(decoding: $0, as: UTF8.self) }, "bar=2&foo=1")
        XCTAssertEqual(post.headers["Content-Type"], "application/x-www-form-urlencoded; charset=utf-8")
        XCTAssertNil(post.url.query)
        let preset = Request(url: url, method: .post, headers: ["content-type": "text/plain"])
        XCTAssertEqual(try URLEncoding.default.encode(preset, with: ["a": 1]).headers.fields.count, 1)
        XCTAssertEqual(
            try URLEncoding.default.encode(Request(url: url, method: .delete), with: ["a": 1]).url.query, "a=1")
    }

    func testJSONEncodingSetsTheContentTypeOnlyIfAbsentAndNilGivesNoBody() throws {
        let encoded = try JSONEncoding.default.encode(
            Request(url: url, method: .post), with: ["b": [1, 2], "a": "x/y"])
        XCTAssertEqual(encoded.httpBody.map { String(decoding: $0, as: UTF8.self) }, #"{"a":"x\/y","b":[1,2]}"#)
        XCTAssertEqual(encoded.headers["Content-Type"], "application/json")
        let none = try JSONEncoding.default.encode(Request(url: url, method: .post), with: nil)
        XCTAssertNil(none.body)
        XCTAssertNil(none.headers["Content-Type"])
        let pretty = try JSONEncoding.prettyPrinted.encode(Request(url: url), with: ["a": 1])
        XCTAssertEqual(pretty.httpBody.map { String(decoding: $0, as: UTF8.self) }, "{\n  \"a\" : 1\n}")
    }

    func testURLForTarget() {
        struct Target: TargetType {
            var baseURL: URL
            var path: String
            var method: MoyaCore.Method { .get }
            var task: MoyaCore.Task { .requestPlain }
            var headers: [String: String]? { nil }
        }
        let base = URL(string: "http://example.com/123/somepath?X-ABC-Asd=123")!
        XCTAssertEqual(URL(target: Target(baseURL: base, path: "")).absoluteString, base.absoluteString)
        XCTAssertEqual(
            URL(target: Target(baseURL: base, path: "/users")).absoluteString,
            "http://example.com/123/somepath/users?X-ABC-Asd=123")
        let plain = URL(string: "https://api.test/")!
        XCTAssertEqual(URL(target: Target(baseURL: plain, path: "/a?b c")).absoluteString, "https://api.test/a%3Fb%20c")
        XCTAssertEqual(
            URL(target: Target(baseURL: plain, path: "users/%2F")).absoluteString, "https://api.test/users/%2F")
    }

    func testJSONRoundTripKeepsOrder() throws {
        let text = #"{"b":1,"a":[true,null,-1.5e3,"\u00e9\n"]}"#
        let value = try JSONValue(parsing: text)
        XCTAssertEqual(value.serialized(escapeSlashes: false), #"{"b":1,"a":[true,null,-1500,"é\n"]}"#)
        XCTAssertThrowsError(try JSONValue(parsing: "{\"a\":}"))
        XCTAssertThrowsError(try JSONValue(parsing: String(repeating: "[", count: 600)))
    }

    func testMultipartBody() throws {
        let form = MultipartFormData(
            parts: [
                MultipartFormBodyPart(provider: .data(Data("v".utf8)), name: "n"),
                MultipartFormBodyPart(
                    provider: .data(Data("x".utf8)), name: "f", fileName: "f.txt", mimeType: "text/plain"),
            ], boundary: "B")
        XCTAssertEqual(form.contentType, "multipart/form-data; boundary=B")
        XCTAssertEqual(
            String(decoding: try form.encode(), as: UTF8.self),
            "--B\r\nContent-Disposition: form-data; name=\"n\"\r\n\r\nv\r\n"
                + "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"f.txt\"\r\nContent-Type: text/plain\r\n\r\nx\r\n--B--\r\n"
        )
    }
}
