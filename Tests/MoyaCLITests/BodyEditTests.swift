import Foundation
import MoyaCLI
import MoyaCore
import TestSupport
import XCTest

/// `call --body` and `--set`: a request body changed from the command line, sent to the
/// echo server on 127.0.0.1, which answers with what it received.
extension CallCommandTests {
    /// `--set` changes a JSON task's body at any depth, making what the path needs, strings
    /// with `=` and any JSON with `:=`, in order; `[]` appends, and a new member (`age`, an
    /// optional param left out) comes last.
    func testSetChangesAJSONBodyAtAnyDepth() async throws {
        let outcome = await call([
            "calls.json", "--name", "Ann", "--set", "age:=41", "--set", "address.city=Oslo",
            "--set", "address.lines[0]=Storgata 1", "--set", "tags[]=c", "--set", "tags[0]=z", "--set",
            "$.meta:={\"ok\":true}", "--set", "['a.b']=dotted",
        ])
        XCTAssertEqual(outcome.status, 0, outcome.error)
        let echo = try outcome.echo()
        XCTAssertEqual(
            echo["body"] as? String,
            #"{"name":"Ann","tags":["z","b","c"],"age":41,"address":{"city":"Oslo","lines":["Storgata 1"]},"meta":{"ok":true},"a.b":"dotted"}"#
        )
        XCTAssertEqual(header(echo, "Content-Type"), "application/json")
    }

    /// `--set` on a parameters block sent as JSON, and on a JSON data body, which the
    /// import of a nested body writes; the content type stays the target's.
    func testSetChangesParametersAndDataBodies() async throws {
        let parameters = try await call(["calls.jsonParameters", "--set", "a.d:=[1]"]).echo()
        XCTAssertEqual(parameters["body"] as? String, #"{"b":[1,2],"a":{"c":true,"d":[1]}}"#)
        let data = await call(["calls.data", "--set", "x=1"])
        XCTAssertEqual(data.status, 64)
        XCTAssertEqual(
            data.error, "moya-cli: error: the body of calls.data is not JSON: unexpected character at byte 0\n")
    }

    /// `--body` sends a whole body instead of the target's: inline, from a file, from
    /// stdin; `--set` then changes it. A JSON target refuses a body that is not JSON.
    func testBodyReplacesTheWholeBody() async throws {
        let inline = try await call(["calls.json", "--name", "Ann", "--body", #"{"id":7}"#, "--set", "x:=1"]).echo()
        XCTAssertEqual(inline["body"] as? String, #"{"id":7,"x":1}"#)
        let file = try temporaryFile("raw text\n")
        let fromFile = try await call(["calls.data", "--body", "@" + file]).echo()
        XCTAssertEqual(fromFile["body"] as? String, "raw text\n")
        XCTAssertEqual(header(fromFile, "Content-Type"), "text/plain")

        let capture = CommandTests.Capture()
        var context = CommandContext(
            environment: Environment(["TEST_SERVER": server.baseURL]), writeOut: { capture.appendOut($0) },
            writeError: { capture.appendError($0) })
        context.readInput = { Array(#"{"from":"stdin"}"#.utf8) }
        let status = await MoyaCLI.run(
            ["call", "calls.json", "--name", "Ann", "--body", "@-", "--specs", specs], context: context)
        XCTAssertEqual(status, 0, capture.error)
        let stdin = try XCTUnwrap(JSONSerialization.jsonObject(with: capture.outBytes) as? [String: Any])
        XCTAssertEqual(stdin["body"] as? String, #"{"from":"stdin"}"#)

        let notJSON = await call(["calls.json", "--name", "Ann", "--body", "{\"id\":"])
        XCTAssertEqual(notJSON.status, 64)
        XCTAssertEqual(notJSON.error, "moya-cli: error: --body is not JSON: unexpected end of input at byte 6\n")
        let missing = await call(["calls.json", "--name", "Ann", "--body", "@/nonexistent/body.json"])
        XCTAssertEqual(missing.status, 64)
        XCTAssertEqual(missing.error, "moya-cli: error: --body: cannot read /nonexistent/body.json\n")
    }

    /// What cannot be set is a usage error that says why, before anything is sent.
    func testBodyEditsThatCannotBeMade() async throws {
        let rows: [(arguments: [String], error: String)] = [
            (["calls.plain", "--set", "a=1"], "calls.plain sends no body; --set changes a JSON or data body"),
            (
                ["calls.form", "--q", "x", "--body", "a=1"],
                "calls.form sends its params in the URL or a form; --body changes a JSON or data body"
            ),
            (
                ["calls.json", "--name", "A", "--set", "tags[5]=x"],
                "--set 'tags[5]=x': step 2, [5]: the array has 2 items; [2] or [] appends"
            ),
            (
                ["calls.json", "--name", "A", "--set", "name.first=x"],
                "--set 'name.first=x': step 2, 'first': the value there is a string, not an object"
            ),
            (
                ["calls.json", "--name", "A", "--set", "name"],
                "--set 'name': write PATH=TEXT, or PATH:=JSON for a number, boolean, null, array or object"
            ),
            (
                ["calls.json", "--name", "A", "--set", "n:=tru"],
                "--set 'n:=tru': the value after := is not JSON: invalid literal at byte 0"
            ),
            (["calls.json", "--name", "A", "--set", "a..b=1"], "--set 'a..b': a name is empty"),
            (
                ["calls.json", "--name", "A", "--set", "a[x]=1"],
                "--set 'a[x]': [x] is not an index; write [N], [] to append, or ['name']"
            ),
        ]
        for row in rows {
            let outcome = await call(row.arguments)
            XCTAssertEqual(outcome.status, 64, row.arguments.joined(separator: " "))
            XCTAssertEqual(outcome.error, "moya-cli: error: \(row.error)\n")
            XCTAssertEqual(outcome.text, "")
        }
    }
}
