import MoyaCoverage
import MoyaHTTP
import MoyaSpec

/// The reports a `check` run writes: JUnit XML, TAP, JSON and GitHub Actions annotations.
public enum CheckReports {
    /// Seconds with three decimals, as JUnit's `time` and the summary show them.
    public static func seconds(_ value: Double) -> String {
        FixedPoint.format(value, places: 3)
    }

    // MARK: - JUnit

    /// One `<testcase>`: a check, a flow, or with `steps` a flow's step.
    struct JUnitCase {
        var classname: String
        var name: String
        var seconds: Double
        var file: String
        var line: Int
        var outcome: CheckResult.Outcome
        /// The skip's reason, or the first failure.
        var message: String
        /// The failure lines.
        var details: [String]
        /// A flow's step lines.
        var output: String
    }

    /// JUnit XML: a test suite per service, a test case per check and per flow, failures with
    /// their messages. With `steps` (`--junit-steps`), a flow is a test case per step instead,
    /// named by the step (`finally: delete` for a `finally` step) under the flow's name as
    /// the class, as Hurl's per-request cases are asked for; a flow that failed with no step
    /// failing (an interrupt) keeps a case of its own for that failure.
    /// With `gate` (`--coverage-min`), a last suite, `coverage`, holds one case for it.
    public static func junit(
        _ results: [CheckResult], summary: CheckSummary, steps: Bool = false, gate: CoverageGate? = nil
    ) -> String {
        var services: [String] = []
        for result in results where !services.contains(result.planned.service.name) {
            services.append(result.planned.service.name)
        }
        var suites = services.map { service in
            (service, results.filter { $0.planned.service.name == service }.flatMap { junitCases($0, steps: steps) })
        }
        if let gate {
            let failure = gate.failure
            let gateCase = JUnitCase(
                classname: "coverage", name: gate.name, seconds: 0, file: "", line: 0,
                outcome: failure == nil ? .passed : .failed, message: failure ?? "",
                details: failure.map { [$0] } ?? [], output: "")
            suites.append(("coverage", [gateCase]))
        }
        let all = suites.flatMap(\.1)
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"moya-cli check\" tests=\"\(all.count)\" "
        xml +=
            "failures=\"\(all.count { $0.outcome == .failed })\" skipped=\"\(all.count { $0.outcome == .skipped })\" "
        xml += "time=\"\(seconds(summary.seconds))\">\n"
        for (service, cases) in suites {
            xml += "  <testsuite name=\"\(escape(service))\" tests=\"\(cases.count)\" "
            xml +=
                "failures=\"\(cases.count { $0.outcome == .failed })\" skipped=\"\(cases.count { $0.outcome == .skipped })\" "
            xml += "time=\"\(seconds(cases.reduce(0) { $0 + $1.seconds }))\">\n"
            for item in cases {
                xml += "    <testcase classname=\"\(escape(item.classname))\" "
                xml += "name=\"\(escape(item.name))\" time=\"\(seconds(item.seconds))\""
                if !item.file.isEmpty { xml += " file=\"\(escape(item.file))\" line=\"\(item.line)\"" }
                let output = item.output.isEmpty ? "" : "      <system-out>\(escape(item.output))</system-out>\n"
                switch item.outcome {
                case .passed:
                    xml += output.isEmpty ? "/>\n" : ">\n" + output + "    </testcase>\n"
                case .skipped:
                    xml += ">\n      <skipped message=\"\(escape(item.message))\"/>\n    </testcase>\n"
                case .failed:
                    xml += ">\n      <failure message=\"\(escape(item.message))\" type=\"assertion\">"
                    xml += escape(item.details.joined(separator: "\n"))
                    xml += "</failure>\n" + output + "    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    /// The test cases of one result: itself, or with `steps` a flow's steps.
    static func junitCases(_ result: CheckResult, steps: Bool) -> [JUnitCase] {
        let planned = result.planned
        let first = result.failures.first.map { "\($0.keyPath): \($0.message)" } ?? "failed"
        let whole = JUnitCase(
            classname: planned.qualifiedName, name: planned.caseName, seconds: result.seconds, file: result.file,
            line: planned.mark.line, outcome: result.outcome,
            message: result.outcome == .skipped ? result.reason ?? "" : first, details: result.failureLines,
            output: result.steps.map(\.line).joined(separator: "\n"))
        guard steps, case .flow = planned.subject, !result.steps.isEmpty else { return [whole] }
        var cases = result.steps.map { step in
            let failure = step.failures.first.map { "\($0.keyPath): \($0.message)" } ?? "failed"
            return JUnitCase(
                classname: planned.qualifiedName, name: step.label, seconds: step.seconds, file: result.file,
                line: (step.mark ?? planned.mark).line, outcome: step.outcome,
                message: step.outcome == .skipped ? step.reason ?? "" : failure,
                details: step.failures.map { CheckResult.line(for: $0, in: result.file) }, output: "")
        }
        if result.outcome == .failed, !cases.contains(where: { $0.outcome == .failed }) {
            var flow = whole
            flow.name = planned.caseName + " (flow)"
            flow.output = ""
            cases.append(flow)
        }
        return cases
    }

    /// Text escaped for XML content and attributes, without the characters XML 1.0 forbids.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n": out += "&#10;"
            case "\t", "\r": out += "&#\(scalar.value);"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: - TAP

    /// TAP version 14: a test point per check, failures in a YAML diagnostic block.
    public static func tap(_ results: [CheckResult]) -> String {
        var lines = ["TAP version 14", "1..\(results.count)"]
        for (index, result) in results.enumerated() {
            let number = index + 1
            let title = tapText(result.planned.title)
            switch result.outcome {
            case .passed:
                lines.append("ok \(number) - \(title)")
                if !result.steps.isEmpty {
                    lines += ["  ---", "  steps:"] + stepLines(result) + ["  ..."]
                }
            case .skipped:
                lines.append("ok \(number) - \(title) # SKIP \(tapText(result.reason ?? ""))")
            case .failed:
                lines.append("not ok \(number) - \(title)")
                lines.append("  ---")
                lines.append("  duration_ms: \(result.milliseconds)")
                lines.append("  failures:")
                for line in result.failureLines {
                    lines.append("    - " + JSONValue.string(line).serialized(escapeSlashes: false))
                }
                if !result.steps.isEmpty { lines += ["  steps:"] + stepLines(result) }
                lines.append("  ...")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func stepLines(_ result: CheckResult) -> [String] {
        result.steps.map { "    - " + JSONValue.string($0.line).serialized(escapeSlashes: false) }
    }

    /// A description on one line, with `#` escaped so that TAP does not read a directive.
    private static func tapText(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("#", with: "\\#").replacing("\n", with: " ")
    }

    // MARK: - JSON

    /// Every result and the summary as one JSON document.
    public static func json(_ results: [CheckResult], summary: CheckSummary) -> String {
        let checks: [JSONValue] = results.map { result in
            var members: [(key: String, value: JSONValue)] = [
                ("target", .string(result.planned.qualifiedName)),
                ("name", .string(result.planned.name)),
                ("status", .string(result.outcome.rawValue)),
                ("seconds", .number(Double(result.milliseconds) / 1000)),
                ("file", .string(result.file)),
                ("line", .integer(result.planned.mark.line)),
            ]
            if let reason = result.reason { members.append(("reason", .string(reason))) }
            if !result.steps.isEmpty {
                members.append(("steps", .array(result.steps.map(stepJSON))))
            }
            if !result.failures.isEmpty {
                members.append(
                    (
                        "failures",
                        .array(
                            result.failures.map { failure in
                                var entry: [(key: String, value: JSONValue)] = [
                                    ("keyPath", .string(failure.keyPath)), ("message", .string(failure.message)),
                                ]
                                if let mark = failure.mark {
                                    entry.append(("line", .integer(mark.line)))
                                    entry.append(("column", .integer(mark.column)))
                                }
                                return .object(entry)
                            })
                    ))
            }
            return .object(members)
        }
        let document = JSONValue.object([
            (
                "summary",
                .object([
                    ("total", .integer(summary.total)), ("passed", .integer(summary.passed)),
                    ("failed", .integer(summary.failed)), ("skipped", .integer(summary.skipped)),
                    ("seconds", .number(Double(Int((summary.seconds * 1000).rounded())) / 1000)),
                ])
            ),
            ("checks", .array(checks)),
        ])
        return document.serialized(pretty: true, escapeSlashes: false) + "\n"
    }

    private static func stepJSON(_ step: StepResult) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("name", .string(step.label)), ("status", .string(step.outcome.rawValue)),
            ("seconds", .number(Double(step.milliseconds) / 1000)),
        ]
        if let status = step.status { members.append(("httpStatus", .integer(status))) }
        if let reason = step.reason { members.append(("reason", .string(reason))) }
        return .object(members)
    }

    // MARK: - GitHub Actions

    /// `::error file=…,line=…,col=…::message` for each failure, pointing at the assertion.
    public static func githubAnnotations(_ result: CheckResult) -> [String] {
        result.failures.map { failure in
            var properties = "file=\(property(result.file))"
            if let mark = failure.mark { properties += ",line=\(mark.line),col=\(mark.column)" }
            let message = "\(result.planned.title): \(failure.keyPath): \(failure.message)"
            return "::error \(properties)::\(data(message))"
        }
    }

    private static func data(_ text: String) -> String {
        text.replacing("%", with: "%25").replacing("\r", with: "%0D").replacing("\n", with: "%0A")
    }

    private static func property(_ text: String) -> String {
        data(text).replacing(":", with: "%3A").replacing(",", with: "%2C")
    }
}
