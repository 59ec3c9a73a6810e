import MoyaCore
import MoyaSpec

/// The reports a `check` run writes: JUnit XML, TAP, JSON and GitHub Actions annotations.
public enum CheckReports {
    /// Seconds with three decimals, as JUnit's `time` and the summary show them.
    public static func seconds(_ value: Double) -> String {
        FixedPoint.format(value, places: 3)
    }

    // MARK: - JUnit

    /// JUnit XML: a test suite per service, a test case per check, failures with their messages.
    public static func junit(_ results: [CheckResult], summary: CheckSummary) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\"moya-cli check\" tests=\"\(summary.total)\" failures=\"\(summary.failed)\" "
        xml += "skipped=\"\(summary.skipped)\" time=\"\(seconds(summary.seconds))\">\n"
        var services: [String] = []
        for result in results where !services.contains(result.planned.service.name) {
            services.append(result.planned.service.name)
        }
        for service in services {
            let cases = results.filter { $0.planned.service.name == service }
            let suite = CheckSummary(results: cases, seconds: cases.reduce(0) { $0 + $1.seconds })
            xml += "  <testsuite name=\"\(escape(service))\" tests=\"\(suite.total)\" failures=\"\(suite.failed)\" "
            xml += "skipped=\"\(suite.skipped)\" time=\"\(seconds(suite.seconds))\">\n"
            for result in cases {
                let planned = result.planned
                xml += "    <testcase classname=\"\(escape(planned.qualifiedName))\" "
                xml += "name=\"\(escape(planned.caseName))\" time=\"\(seconds(result.seconds))\" "
                xml += "file=\"\(escape(result.file))\" line=\"\(planned.mark.line)\""
                // A flow's steps are its output.
                let output =
                    result.steps.isEmpty
                    ? ""
                    : "      <system-out>\(escape(result.steps.map(\.line).joined(separator: "\n")))</system-out>\n"
                switch result.outcome {
                case .passed:
                    xml += output.isEmpty ? "/>\n" : ">\n" + output + "    </testcase>\n"
                case .skipped:
                    xml += ">\n      <skipped message=\"\(escape(result.reason ?? ""))\"/>\n    </testcase>\n"
                case .failed:
                    let first = result.failures.first.map { "\($0.keyPath): \($0.message)" } ?? "failed"
                    xml += ">\n      <failure message=\"\(escape(first))\" type=\"assertion\">"
                    xml += escape(result.failureLines.joined(separator: "\n"))
                    xml += "</failure>\n" + output + "    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
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
