import MoyaBinding
import MoyaCompiler
import MoyaCore
import MoyaSpec
import XCTest

@testable import MoyaRuntime

/// `SampleEdit` on the layouts a hand-written spec takes: each edit changes only the sample's
/// lines and compares whole.
final class SampleEditTests: XCTestCase {
    let sample = RecordedSample(
        status: 200, headers: ["Content-Type": "text/plain"], body: .text("hi {there}\n"))

    func edited(_ text: String, target: String = "t", sample name: String? = nil) throws -> String {
        try SampleEdit(file: "s.yaml", target: target, sample: name).apply(sample, to: text)
    }

    /// A sample added at the end of the last target, with no final line break; a comment on
    /// the last line stays on it.
    func testASampleIsAddedAtTheTargetsEnd() throws {
        XCTAssertEqual(
            try edited("targets:\n  t:\n    path: /x   # the x\n  u:\n    path: /u"),
            """
            targets:
              t:
                path: /x   # the x
                sample:
                  status: 200
                  headers:
                    Content-Type: text/plain
                  body: |
                    hi {{there}}
              u:
                path: /u
            """)
        XCTAssertEqual(
            try edited("targets:\n  u:\n    path: /u\n  t:\n    path: /x", target: "t", sample: "named one"),
            """
            targets:
              u:
                path: /u
              t:
                path: /x
                samples:
                  named one:
                    status: 200
                    headers:
                      Content-Type: text/plain
                    body: |
                      hi {{there}}
            """)
    }

    /// A block scalar sample, with blank lines and a comment after it, is replaced and they
    /// stay; line breaks stay CRLF in a CRLF file, and a byte order mark stays.
    func testAnExistingSampleIsReplacedInPlace() throws {
        let text = "targets:\n  t:\n    sample: |\n      old\n      text\n\n    # checks follow\n    checks: []\n"
        XCTAssertEqual(
            try edited(text),
            """
            targets:
              t:
                sample:
                  status: 200
                  headers:
                    Content-Type: text/plain
                  body: |
                    hi {{there}}

                # checks follow
                checks: []

            """)
        let crlf = "\u{FEFF}targets:\r\n  t:\r\n    sample: old   # was\r\n    path: /x\r\n"
        XCTAssertEqual(
            try edited(crlf),
            "\u{FEFF}targets:\r\n  t:\r\n    sample:\r\n      status: 200\r\n      headers:\r\n"
                + "        Content-Type: text/plain\r\n      body: |\r\n        hi {{there}}   # was\r\n    path: /x\r\n"
        )
    }

    /// `samples:` with nothing under it, a named sample that is an alias (it gets its own),
    /// and an anchored sample others use, which is refused.
    func testSamplesMappingsAliasesAndAnchors() throws {
        XCTAssertEqual(
            try edited("targets:\n  t:\n    samples: ~\n    path: /x\n", sample: "a"),
            """
            targets:
              t:
                samples:
                  a:
                    status: 200
                    headers:
                      Content-Type: text/plain
                    body: |
                      hi {{there}}
                path: /x

            """)
        XCTAssertEqual(
            try edited("targets:\n  t:\n    samples:\n      a: *shared\n", sample: "a"),
            """
            targets:
              t:
                samples:
                  a:
                    status: 200
                    headers:
                      Content-Type: text/plain
                    body: |
                      hi {{there}}

            """)
        XCTAssertThrowsError(try edited("targets:\n  t:\n    sample: &shared { status: 200 }\n")) { error in
            XCTAssertEqual(
                (error as? Diagnostic)?.description,
                "s.yaml:3:13: error: targets.t.sample: other nodes refer to this sample by its anchor; "
                    + "--record does not change it")
        }
        XCTAssertThrowsError(try edited("targets:\n  t:\n    samples: { a: 1 }\n", sample: "a")) { error in
            XCTAssertEqual(
                (error as? Diagnostic)?.description,
                "s.yaml:3:14: error: targets.t.samples: is written in flow style, { … }; --record edits block "
                    + "style: write it as a block")
        }
    }

    /// Text a literal block cannot hold exactly is double-quoted; plain text stays plain.
    func testTextThatABlockCannotHoldIsQuoted() {
        XCTAssertEqual(RecordedSample.textLines("body", "a\r\nb", indent: 0), [#"body: "a\r\nb""#])
        XCTAssertEqual(RecordedSample.textLines("body", " lead\n", indent: 0), [#"body: " lead\n""#])
        XCTAssertEqual(RecordedSample.textLines("body", "plain text", indent: 2), ["  body: plain text"])
        // Blank lines at the end: a `|+` block would take in the spec's blank lines after it.
        XCTAssertEqual(RecordedSample.textLines("body", "a\n\n\n", indent: 0), [#"body: "a\n\n\n""#])
        XCTAssertEqual(RecordedSample.textLines("body", "a\nb\n", indent: 0), ["body: |", "  a", "  b"])
        XCTAssertEqual(RecordedSample.textLines("body", "x: ${HOME}", indent: 0), ["body: |-", "  x: $${HOME}"])
    }

    /// Texts of every shape read back from the edited spec as the very bytes: pretty JSON
    /// with its indentation, trailing line breaks, tabs, braces, `${`, quotes and controls.
    func testEveryTextReadsBackAsItCame() throws {
        let texts = [
            "{\n  \"args\": {\n    \"q\": \"hi\"\n  }\n}\n", "a\n\n\n", "no break", "\ttabbed\n\tlines",
            "{id} and {{x}} and ${HOME} and $${y}", "quote \" and \\ back", "bell \u{07} and \r\n", "  lead",
            "trail  \nx", "- item\n- two\n", "# not a comment\n", "key: value", "null", "123", "\u{2028}sep",
        ]
        for text in texts {
            let recorded = RecordedSample(
                status: 201, headers: ["X-Note": "{v} ${V}"], body: .text(text))
            let spec = try SampleEdit(file: "s.yaml", target: "t", sample: nil).apply(
                recorded, to: "baseURL: https://x.test\ntargets:\n  t:\n    path: /t\n")
            let service = try compile(spec)
            guard let target = service.target(named: "t"),
                case .response(let head, let body) = try service.sample(of: target, named: nil, values: [:])
            else { return XCTFail("no sample in\n\(spec)") }
            XCTAssertEqual(String(decoding: body, as: UTF8.self), text, spec)
            XCTAssertEqual(head.statusCode, 201)
            XCTAssertEqual(head.headers["X-Note"], "{v} ${V}", spec)
        }
    }
}

/// Compiles YAML text as if read from `specs/test.yaml`.
private func compile(_ text: String) throws -> ServiceSpec {
    try SpecCompiler(environment: Environment([:])).compile(Array(text.utf8), file: "specs/test.yaml")
}
