import MoyaCompiler
import MoyaSpec
import XCTest

/// Each file in Tests/Fixtures/invalid is a broken spec; each must report exactly these
/// problems, at these places, and nothing else.
final class InvalidFixtureTests: XCTestCase {
    static let expectations: [(file: String, problems: [String])] = [
        (
            "bad-checks.yaml",
            [
                "14:21: targets.showUser.checks[0].expect.json.$.id.equal: unknown predicate 'equal'; did you mean 'equals'?",
                "19:13: targets.showUser.checks[1].expect.json.id: bad JSON path 'id': a JSON path starts with $",
                "20:13: targets.showUser.checks[1].expect.json.$.a[x]: bad JSON path '$.a[x]': at character 5: expected a quoted name, *, an index, a slice or a filter",
                "22:26: targets.showUser.checks[2].params.idd: unknown param 'idd'; did you mean 'id'?",
                "24:23: targets.showUser.checks[3].params.id: expects an int, got \"one\"",
                "25:17: targets.showUser.checks[3].sample: unknown sample 'notfound'; did you mean 'notFound'?",
                "26:27: targets.showUser.checks[3].expect.status: expected a status code, a list of codes or a class such as 2xx, got '2yy'",
                "26:41: targets.showUser.checks[3].expect.maxTime: expected a duration such as 500ms or 2s, got \"soon\"",
                "26:47: targets.showUser.checks[3].expect.matchesSampel: unknown key 'matchesSampel'; did you mean 'matchesSample'?",
                "27:9: targets.showUser.checks[4].params: the check does not give required param 'id'",
                "29:28: targets.showUser.checks[4].expect.body.matches: '(' is not a valid regular expression: an unclosed '(' at offset 1",
                "30:33: targets.showUser.checks[4].expect.json.$.id.type: unknown type \"str\"; expected string | number | integer | bool | array | object | null",
            ]
        ),
        (
            "bad-flows.yaml",
            [
                "7:3: flows.showUser: 'showUser' is already a target; a flow needs its own name",
                "13:19: flows.lifecycle.steps[0].params.first: unknown param 'first'; the target takes no params",
                "14:39: flows.lifecycle.steps[0].capture.bad: a capture reads one source; it has 2",
                "14:75: flows.lifecycle.steps[0].capture.worse: bad JSON path '$[': at character 3: an unclosed '['",
                "16:23: flows.lifecycle.steps[1].params.id: variable 'userid' is not set by vars or an earlier step's capture; did you mean 'userId'?",
                "17:17: flows.lifecycle.steps[1].sample: unknown sample 'mising'; did you mean 'missing'?",
                "18:27: flows.lifecycle.steps[1].expect.json.$.id: variable 'usrId' is not set by vars or an earlier step's capture; did you mean 'userId'?",
                "20:23: flows.lifecycle.steps[2].params.id: this is a YAML mapping; write \"{userId}\" with quotes to use the variable",
                "21:16: flows.lifecycle.steps[2].until: 'until' needs 'retry', such as retry: { every: 500ms, for: 30s }",
                "22:15: flows.lifecycle.steps[3].call: unknown target 'showUsr'; did you mean 'showUser'?",
                "23:15: flows.lifecycle.steps[3].skip: '=' must be '=='",
                "25:23: flows.lifecycle.steps[4].params.id: unknown built-in '{$uid}'; the built-ins are {$uuid}, {$now}, {$timestamp}",
                "26:16: flows.lifecycle.steps[4].retry: say how long to poll: 'for: 30s' or 'times: 10'",
                "26:16: flows.lifecycle.steps[4].retry: 'retry' polls until a condition holds; add 'until' with what to wait for",
                "27:15: flows.lifecycle.steps[4].each: expected a sequence of rows or \"{variable}\"",
                "29:9: flows.lifecycle.finally[0].params: the step does not give required param 'id'",
                "34:25: flows.forever.steps[0].retry.every: expected at most 604800 s (a week)",
            ]
        ),
        (
            "rough-edges.yaml",
            [
                "9:21: targets.createUser.task.json.name: this is a YAML mapping; write \"{name}\" with quotes to use the param",
                "9:29: targets.createUser.task.json.{age}: a key is sent as written, so {age} in it is not filled in; only values take templates",
                "15:19: targets.unquoted.task.parameters: this is a YAML mapping; write \"{id}\" with quotes to use the param",
                "18:5: targets.checked.json: unknown key 'json' at this level; is it indented correctly?",
                "21:7: targets.checked.task.sample: unknown key 'sample' at this level; is it indented correctly?",
                "23:35: targets.checked.checks[0].expect.json.$.id.tpye: unknown predicate 'tpye'; did you mean 'type'?",
            ]
        ),
        (
            "param-rules.yaml",
            [
                "5:36: targets.search.params.flag.minimum: minimum applies to an int or a number param; this one is of type bool",
                "6:32: targets.search.params.n.default: the default breaks the param's rules: expected <= 100, got 500",
                "7:35: targets.search.params.s.pattern: '([a-z' is not a valid regular expression: an unclosed '[' at offset 5",
                "8:39: targets.search.params.tags.maxItems: maxItems applies to an array param; this one is of type string",
            ]
        ),
        (
            "tab-indent.yaml",
            [
                "5:1: yaml: found a tab character that violates indentation (while scanning a plain scalar at 4:11): YAML indents with spaces, and this line has a tab"
            ]
        ),
        (
            "reserved-character.yaml",
            [
                "4:11: yaml: found character that cannot start any token (while scanning for the next token at 4:11): a plain value cannot start with '@'; put the value in quotes"
            ]
        ),
        (
            "bad-auth.yaml",
            [
                "3:10: auth.basic: basic auth needs both user and password",
                "5:28: targets.zen.auth: unknown auth \"nobody\"; expected none",
            ]
        ),
        (
            "bad-default.yaml",
            [
                "5:36: targets.list.params.limit.default: the default expects an int, got \"lots\""
            ]
        ),
        (
            "bad-encoding.yaml",
            [
                "7:17: targets.createUser.task.encoding: unknown encoding \"jsn\"; expected url | queryString | httpBody | json | prettyJSON; did you mean 'json'?"
            ]
        ),
        (
            "bad-header.yaml",
            [
                "3:3: headers.Bad Header: \"Bad Header\" is not a valid header name"
            ]
        ),
        (
            "bad-method.yaml",
            [
                "5:13: targets.userProfile.method: unknown HTTP method \"FETCH\"; expected one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, TRACE, CONNECT, QUERY, or a method of IANA's registry in capitals (COPY, LOCK, PROPFIND, …)"
            ]
        ),
        (
            "bad-param-type.yaml",
            [
                "4:19: targets.showUser.params.id: unknown param type \"integer\"; expected string, int, number, bool, file, [T] or enum; did you mean 'int'?"
            ]
        ),
        (
            "target-key-too-shallow.yaml",
            [
                "5:3: targets.path: 'path' is a target's key, here at the level of the targets' names; is it indented correctly?"
            ]
        ),
        (
            "bad-sample-error.yaml",
            [
                "6:25: targets.zen.samples.offline.error: unknown network error \"offline\"; expected timeout | notConnectedToInternet | cannotFindHost | cannotConnectToHost | networkConnectionLost | cancelled"
            ]
        ),
        (
            "bad-service-name.yaml",
            [
                "1:10: service: \"9lives\" is not a valid service name; use letters, digits, '_' and '-', starting with a letter"
            ]
        ),
        ("bad-port.yaml", ["1:10: baseURL: port 99999 is out of range; a port is 1 to 65535"]),
        (
            "bad-status.yaml",
            [
                "5:23: targets.zen.sample.status: 999 is not an HTTP status code; expected 100 to 599"
            ]
        ),
        (
            "bad-paginate.yaml",
            [
                "3:33: targets.noNext.paginate.next: required key is missing; say how the next page is asked for: link, { url: PATH }, { param: NAME, from: PATH } or { param: NAME, increment: N }",
                "4:43: targets.badStyle.paginate.next: unknown next-page style \"links\"; expected link; did you mean 'link'?",
                "5:43: targets.badPath.paginate.items: bad JSON path 'data': a JSON path starts with $",
                "6:46: targets.urlAndParam.paginate.next: give url: alone, or param: with from: or increment:, not url: and param:",
                "11:32: targets.unknownParam.paginate.next.param: the target has no param 'pgae'; did you mean 'page'?",
                "16:32: targets.requiredCursor.paginate.next.param: 'cursor' is required, and the first page is asked for without its cursor; make it optional: true",
                "21:49: targets.stringPage.paginate.next.increment: expected a step from 1 to 2147483648, got 0",
                "26:32: targets.noDefault.paginate.next.param: 'page' needs a default, the first page's number or offset, such as default: 1",
                "31:17: targets.both.paginate.nxet: unknown key 'nxet'; did you mean 'next'?",
                "31:35: targets.both.paginate.next: give from: or increment:, not both",
                "35:31: targets.plain.checks[0].pages: the target 'plain' has no paginate:, so it has no pages to read",
                "36:30: targets.plain.checks[1].pages: expected all or a number of pages from 1 to 10000, got 0",
                "40:31: flows.walk.steps[0].pages: expected all or a number of pages, got some",
            ]
        ),
        (
            "bad-stream.yaml",
            [
                "3:29: targets.kind.stream: unknown stream kind \"websockets\"; expected sse | ndjson | json-seq | websocket; did you mean 'websocket'?",
                "4:41: targets.key.stream.maxEvent: unknown key 'maxEvent'; did you mean 'maxEvents'?",
                "5:39: targets.until.stream.until: the condition ends too early",
                "6:42: targets.variable.stream.until: unknown variable 'dat'; an event's are {event}, {id}, {data}, {index}; did you mean 'data'?",
                "7:43: targets.count.stream.maxEvents: expected a number of events from 1, got 0",
                "8:40: targets.time.stream.maxTime: expected a duration such as 500ms or 2s, got \"soon\"",
                "8:52: targets.time.stream.idle: expected a duration of at most 604800 s (a week), got 9999999 s",
                "9:42: targets.bytes.stream.maxBytes: expected a size such as 65536, 64KiB or 16MiB, above 0, got \"12TB\"",
                "14:11: targets.sampled.sample.events[0].data: required key is missing; an event has data",
                "15:20: targets.sampled.sample.events[1].event: an event type is one line",
                "15:44: targets.sampled.sample.events[1].retry: expected milliseconds from 0, got -1",
                "15:55: targets.sampled.sample.events[1].delay: expected a duration such as 500ms or 2s, got \"2h\"",
                "16:22: targets.sampled.sample.events[2].dealy: unknown key 'dealy'; did you mean 'delay'?",
                "17:43: targets.notAList.sample.events: expected a sequence of events such as - { data: hello }, got a mapping",
            ]
        ),
        (
            "bad-socket.yaml",
            [
                "3:21: targets.posted.method: a WebSocket opens with GET, got POST",
                "4:49: targets.sse.stream.script: a script is a WebSocket's; give the stream kind: websocket",
                "10:11: targets.steps.stream.script[0]: a step is one of send, send-json, expect, ping, wait or close; found send and expect",
                "11:13: targets.steps.stream.script[1].sned: unknown key 'sned'; did you mean 'send'?",
                "12:21: targets.steps.stream.script[2].expect: unknown variable 'dta'; an event's are {event}, {id}, {data}, {index}; did you mean 'data'?",
                "13:20: targets.steps.stream.script[3].close: expected a close code of 1000 or 3000 to 4999, got 1001",
                "14:31: targets.steps.stream.script[4].within: within goes with expect or ping",
                "15:11: targets.steps.stream.script[5]: expected a step such as send: hello, or ping or close alone, got \"hello\"",
                "16:19: targets.steps.stream.script[6].send: {who} names no declared param (the target declares no params)",
                "17:60: targets.notAList.stream.script: expected a sequence of steps such as - send: hello, got a mapping",
            ]
        ),
        (
            "bad-secrets.yaml",
            [
                "3:3: secrets.lower-case: \"lower-case\" is not a valid variable name; use letters, digits and '_', not starting with a digit",
                "4:8: secrets.TWO: name one store, not pass and dotenv",
                "5:9: secrets.NONE: name where NONE comes from: one of pass, keyring, dotenv or command",
                "6:21: secrets.KEYED.key: key goes with dotenv, not pass",
                "7:15: secrets.UP.pass: \"../up\" is not a pass entry; write its name in the store, such as github/token, without a leading '/' or '-' and without '..'",
                "8:21: secrets.EMPTY.command: expected the program and its arguments as a list, such as [op, read, \"op://…\"]",
                "9:33: secrets.OPTION.keyring.service: an attribute's value does not start with '-'",
                "10:29: secrets.SLOW.timeout: expected a number, got \"soon\"",
            ]
        ),
        (
            "bad-stub.yaml",
            [
                "2:18: stub.delayed: expected a number of seconds above 0 and at most 604800 (a week), got -1",
                "3:10: timeout: expected a number, got \"soon\"",
            ]
        ),
        (
            "bad-url.yaml",
            [
                "1:10: baseURL: \"ftp//nowhere\" is not an absolute http, https, ws or wss URL, such as https://api.example.com"
            ]
        ),
        (
            "bad-validation.yaml",
            [
                "2:19: validation[1]: 1000 is not an HTTP status code; expected 100 to 599",
                "4:34: targets.zen.validation: unknown validation \"sucessCodes\"; expected none | successCodes | successAndRedirectCodes; did you mean 'successCodes'?",
            ]
        ),
        (
            "composite-query-encoding.yaml",
            [
                "7:17: targets.search.task.encoding: with a query, the body encoding must be httpBody, json or prettyJSON; queryString would put the body parameters in the query as well"
            ]
        ),
        (
            "duplicate-key.yaml",
            [
                "5:5: targets.zen.path: duplicate key 'path'"
            ]
        ),
        (
            "missing-base-url.yaml",
            [
                "1:1: baseURL: required key is missing; add the service's base URL, such as baseURL: https://api.example.com"
            ]
        ),
        (
            "missing-sample-file.yaml",
            [
                "5:21: targets.zen.sample.file: no file at Tests/Fixtures/invalid/does-not-exist.json; paths are relative to the spec file"
            ]
        ),
        (
            "not-a-mapping.yaml",
            [
                "1:1: spec: expected a mapping with baseURL and targets, got a sequence"
            ]
        ),
        (
            "recursive-alias.yaml",
            [
                "2:10: yaml: an alias refers to a node that contains it"
            ]
        ),
        (
            "syntax-error.yaml",
            [
                "5:12: yaml: mapping values are not allowed in this context: a key here is indented more than the key before it, or a plain value holds ': '; check the indentation, or put the value in quotes"
            ]
        ),
        (
            "two-task-kinds.yaml",
            [
                "5:11: targets.upload.task: a task is exactly one kind; found both 'data' and 'json'"
            ]
        ),
        (
            "undeclared-param.yaml",
            [
                "5:11: targets.showUser.path: {ide} names no declared param (declared: id); did you mean 'id'?"
            ]
        ),
        (
            "unknown-key.yaml",
            [
                "2:1: headrs: unknown key 'headrs'; did you mean 'headers'?",
                "6:5: targets.zen.metod: unknown key 'metod'; did you mean 'method'?",
            ]
        ),
        (
            "unquoted-in-braces.yaml",
            [
                "8:39: yaml: did not find expected ',' or '}' (while parsing a flow mapping at 8:19): inside { } or [ ], a value that holds {id} needs quotes: write \"{id}\", or quote the whole text around it"
            ]
        ),
        (
            "unquoted-header.yaml",
            [
                "9:22: targets.t.headers.X-Id: this is a YAML mapping; write \"{id}\" with quotes to use the param"
            ]
        ),
        (
            "misindented-line.yaml",
            [
                "8:6: yaml: did not find expected key (while parsing a block mapping at 5:5): this line is indented 5 spaces, which lines up with no key above it (the mapping at 5:5 indents its keys 4); indent it as far as the keys or items it belongs with"
            ]
        ),
        (
            "item-among-keys.yaml",
            [
                "7:3: yaml: did not find expected key (while parsing a block mapping at 4:3): this '- ' item stands among the keys of the mapping at 4:3; a list goes under a key, indented further than the key"
            ]
        ),
        (
            "unclosed-quote.yaml",
            [
                "7:1: yaml: found unexpected end of stream (while scanning a quoted scalar at 6:13): the quote at 6:13 is never closed"
            ]
        ),
        (
            "unclosed-brace.yaml",
            [
                "7:5: yaml: did not find expected ',' or '}' (while parsing a flow mapping at 6:13): the '{' at 6:13 is never closed; end it with '}' on its line, or quote a value inside that holds '{' or '}'"
            ]
        ),
        (
            "missing-colon.yaml",
            [
                "7:5: yaml: could not find expected ':' (while scanning a simple key at 6:5): a key needs ':' after it, as in 'method: GET', and a value on more than one line needs quotes"
            ]
        ),
    ]

    func testEveryInvalidFixtureReportsItsProblems() throws {
        let compiler = SpecCompiler(environment: [:])
        let directory = fixturesDirectory + "/invalid"
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".yaml") }
        XCTAssertEqual(Set(files), Set(Self.expectations.map(\.file)), "every fixture has an expectation")
        for expectation in Self.expectations {
            let path = directory + "/" + expectation.file
            do {
                _ = try compiler.compile(file: path)
                XCTFail("\(expectation.file) compiled without errors")
            } catch {
                let actual = error.diagnostics.map { diagnostic -> String in
                    XCTAssertEqual(diagnostic.file, path)
                    XCTAssertTrue(
                        diagnostic.description.hasPrefix(
                            "\(path):\(diagnostic.mark.line):\(diagnostic.mark.column): error: "))
                    return
                        "\(diagnostic.mark.line):\(diagnostic.mark.column): \(diagnostic.keyPath): \(diagnostic.message)"
                }
                XCTAssertEqual(
                    actual, expectation.problems.map { $0.replacing("Tests/Fixtures", with: fixturesDirectory) },
                    expectation.file)
            }
        }
    }

    func testValidateReportsEveryProblemInAFile() {
        let found = problems(
            """
            baseURL: https://x.test
            targets:
              a: { method: FETCH, path: "/{nope}" }
              b: { sample: { status: 42 } }
            """)
        XCTAssertEqual(found.count, 3, "\(found)")
        XCTAssertTrue(found[0].hasPrefix("3:16: targets.a.method: unknown HTTP method \"FETCH\""))
        XCTAssertTrue(found[1].hasPrefix("3:29: targets.a.path: {nope} names no declared param"))
        XCTAssertTrue(found[2].hasPrefix("4:26: targets.b.sample.status: 42 is not an HTTP status code"))
    }
}
