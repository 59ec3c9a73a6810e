import XCTest

@testable import MoyaRuntime

/// `Link` header values as servers write them (RFC 8288), and the `rel="next"` read from them.
final class LinkHeaderTests: XCTestCase {
    func testNextIsFoundInEveryWayItIsWritten() {
        let cases: [(values: [String], next: String?)] = [
            (
                ["<https://api.github.com/x?page=2>; rel=\"next\", <https://api.github.com/x?page=5>; rel=\"last\""],
                "https://api.github.com/x?page=2"
            ),
            (["<https://a/x?page=1>; rel=\"prev\", <https://a/x?page=3>; rel=\"next\""], "https://a/x?page=3"),
            (["</x?a=1,2;b>; rel=next"], "/x?a=1,2;b"),
            (["<https://a/1>; title=\"a, b; c\"; rel=\"next\""], "https://a/1"),
            (["<https://a/1>; rel=\"next last\""], "https://a/1"),
            (["<https://a/1>;rel=NEXT"], "https://a/1"),
            (["<https://a/1> ; rel = \"next\""], "https://a/1"),
            (["<https://a/1>; rel=\"prev\"", "<https://a/2>; rel=\"next\""], "https://a/2"),
            (["<https://a/1>; rel=\"last\""], nil),
            (["<https://a/1>; rel=\"nextpage\""], nil),
            (["https://a/1; rel=\"next\""], nil),
            (["<https://a/1"], nil),
            ([""], nil),
            ([], nil),
        ]
        for (values, next) in cases {
            XCTAssertEqual(LinkHeader.target(rel: "next", in: values), next, "\(values)")
        }
    }
}
