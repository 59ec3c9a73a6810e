import MoyaCoverage
import MoyaHTTP
import MoyaSpec

extension CheckReports {
    /// The HTML report (`check --html`): one self-contained page, no script and nothing
    /// fetched. A summary, then a section per check and flow in plan order, failures open:
    /// each with its spec file and line, its failure lines as the console prints them, a
    /// timing bar (against the slowest), and its request and response (`ExchangeTrace`,
    /// secrets masked). A flow lists its steps the same way, its bars a waterfall.
    /// With `coverage`, the matrix comes after the summary (`htmlCoverage`).
    public static func html(_ results: [CheckResult], summary: CheckSummary, coverage: Coverage? = nil) -> String {
        var page = ""
        page.reserveCapacity(results.count * 1_024 + 4_096)
        let title = "moya-cli check: \(summary.passed) passed, \(summary.failed) failed, \(summary.skipped) skipped"
        page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        page +=
            "<title>\(html(title))</title>\n<style>\(htmlStyle)\(coverage == nil ? "" : "\n" + coverageStyle)</style>\n"
        page += "</head>\n<body>\n"
        page += "<header><h1>moya-cli check</h1><p class=\"summary\">"
        page += "<span class=\"passed\">\(summary.passed) passed</span> "
        page += "<span class=\"failed\">\(summary.failed) failed</span> "
        page += "<span class=\"skipped\">\(summary.skipped) skipped</span> "
        page += "<span class=\"total\">\(summary.total) checks in \(seconds(summary.seconds)) s</span></p></header>\n"
        page += "<main>\n"
        if let coverage { htmlCoverage(coverage, into: &page) }
        let slowest = results.map(\.seconds).max() ?? 0
        for (index, result) in results.enumerated() {
            htmlCase(result, index: index, slowest: slowest, into: &page)
        }
        page += "</main>\n</body>\n</html>\n"
        return page
    }

    /// One check or flow.
    static func htmlCase(_ result: CheckResult, index: Int, slowest: Double, into page: inout String) {
        let planned = result.planned
        let outcome = result.outcome.rawValue
        let isFlow = if case .flow = planned.subject { true } else { false }
        let name =
            isFlow
            ? "\(planned.qualifiedName) (flow)"
            : planned.name.isEmpty ? planned.qualifiedName : "\(planned.qualifiedName): \(planned.name)"
        page +=
            "<details class=\"case \(outcome)\" id=\"case-\(index + 1)\"\(result.outcome == .failed ? " open" : "")>"
        page += "<summary><span class=\"word\">\(result.outcome.word)</span> <span class=\"name\">\(html(name))</span> "
        page += "<span class=\"time\">\(result.milliseconds) ms</span>"
        page += bar(offset: 0, seconds: result.seconds, of: slowest) + "</summary>\n"
        page += "<p class=\"where\">\(html(result.file)):\(planned.mark.line)</p>\n"
        if let reason = result.reason { page += "<p class=\"reason\">\(html(reason))</p>\n" }
        htmlFailures(result.failureLines, into: &page)
        if let trace = result.trace { htmlTrace(trace, into: &page) }
        if !result.steps.isEmpty {
            let total = result.steps.reduce(0) { $0 + $1.seconds }
            var offset = 0.0
            page += "<ol class=\"steps\">\n"
            for step in result.steps {
                page += "<li><details class=\"step \(step.outcome.rawValue)\"\(step.outcome == .failed ? " open" : "")>"
                page += "<summary><span class=\"word\">\(step.outcome.word)</span> "
                page += "<span class=\"name\">\(html(step.label))</span> "
                page += "<span class=\"status\">\(step.status.map(String.init) ?? "")</span> "
                page += "<span class=\"time\">\(step.milliseconds) ms</span>"
                page += bar(offset: offset, seconds: step.seconds, of: total) + "</summary>\n"
                if let mark = step.mark { page += "<p class=\"where\">\(html(result.file)):\(mark.line)</p>\n" }
                if let reason = step.reason { page += "<p class=\"reason\">\(html(reason))</p>\n" }
                htmlFailures(step.failures.map { CheckResult.line(for: $0, in: result.file) }, into: &page)
                if let trace = step.trace { htmlTrace(trace, into: &page) }
                page += "</details></li>\n"
                offset += step.seconds
            }
            page += "</ol>\n"
        }
        page += "</details>\n"
    }

    /// Failure lines as the console prints them.
    static func htmlFailures(_ lines: [String], into page: inout String) {
        guard !lines.isEmpty else { return }
        page += "<ul class=\"failures\">"
        for line in lines { page += "<li>\(html(line))</li>" }
        page += "</ul>\n"
    }

    /// A request and its response, side by side.
    static func htmlTrace(_ trace: ExchangeTrace, into page: inout String) {
        page += "<div class=\"exchange\"><pre class=\"request\"><b>\(html(trace.method)) \(html(trace.url))</b>"
        for (name, value) in trace.requestHeaders { page += "\n\(html(name)): \(html(value))" }
        if let body = trace.requestBody { page += "\n\n" + html(body) }
        page += "</pre><pre class=\"response\">"
        if let status = trace.status {
            page += "<b>\(status)</b>"
            for (name, value) in trace.responseHeaders { page += "\n\(html(name)): \(html(value))" }
            if let body = trace.responseBody { page += "\n\n" + html(body) }
        } else {
            page += "<b>no response</b>\n" + html(trace.failure ?? "")
        }
        page += "</pre></div>\n"
    }

    /// A timing bar: `seconds` from `offset`, as parts of `total`.
    static func bar(offset: Double, seconds: Double, of total: Double) -> String {
        guard total > 0 else { return "<span class=\"bar\"><span style=\"width:0%\"></span></span>" }
        let left = FixedPoint.format(min(max(offset / total, 0), 1) * 100, places: 1)
        let width = FixedPoint.format(min(max(seconds / total, 0), 1) * 100, places: 1)
        return "<span class=\"bar\"><span style=\"margin-left:\(left)%;width:\(width)%\"></span></span>"
    }

    /// Text escaped for HTML content and attribute values.
    public static func html(_ text: String) -> String {
        guard text.utf8.contains(where: { "&<>\"'".utf8.contains($0) }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// The page's style: light and dark, a line per check, requests beside responses.
    static let htmlStyle = """
        :root{color-scheme:light dark;--pass:#1a7f37;--fail:#cf222e;--skip:#9a6700;--bar:#0969da;--line:#d0d7de}
        body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:16px}
        h1{font-size:20px;margin:0 0 4px}.summary span{margin-right:12px;font-weight:600}
        .passed>summary .word,.summary .passed{color:var(--pass)}.failed>summary .word,.summary .failed{color:var(--fail)}
        .skipped>summary .word,.summary .skipped{color:var(--skip)}
        details.case{border-top:1px solid var(--line);padding:4px 0}
        summary{cursor:pointer;display:flex;gap:8px;align-items:center}
        .word{font-weight:700;width:40px}.name{flex:1;font-family:ui-monospace,monospace}.time,.status{color:gray}
        .bar{width:160px;height:8px;background:rgba(128,128,128,.15);display:inline-block}
        .bar span{display:block;height:8px;background:var(--bar);min-width:1px}
        .where,.reason{color:gray;margin:4px 0 4px 48px;font-family:ui-monospace,monospace}
        .failures{color:var(--fail);font-family:ui-monospace,monospace;margin:4px 0}
        .exchange{display:grid;grid-template-columns:1fr 1fr;gap:8px;margin:6px 0 6px 48px}
        pre{margin:0;padding:8px;background:rgba(128,128,128,.08);overflow:auto;max-height:320px;white-space:pre-wrap;word-break:break-all}
        ol.steps{margin:4px 0 8px 0;padding-left:64px}
        """
}
