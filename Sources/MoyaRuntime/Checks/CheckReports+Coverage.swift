import MoyaCoverage
import MoyaJSON

extension CheckReports {
    /// The HTML report's coverage matrix (`check --html` with `--coverage`): the total on
    /// top, then per service its targets by group (the path's first segment) as rows and the
    /// statuses as columns, each cell covered, not covered or not declared. A status that
    /// came back though the target does not declare it is marked: a gap in the description.
    static func htmlCoverage(_ coverage: Coverage, into page: inout String) {
        let total = coverage.total
        page +=
            "<section class=\"coverage\"><h2>Coverage: \(JSONValue.format(total.percent))% of declared statuses</h2>\n"
        page += "<p class=\"totals\">"
        page += [
            ("targets called", total.targets), ("statuses", total.statuses), ("params sent", total.params),
            ("enum values", total.enumValues), ("body branches", total.bodyBranches),
        ].map { "<span>\($0.1.covered) of \($0.1.total) \($0.0)</span>" }.joined(separator: " ")
        page += "</p>\n"
        for (service, totals) in coverage.services {
            // Each group's targets together, groups in the order their first target is declared.
            let declared = coverage.items.filter { $0.declared.service == service }
            var groups: [String] = []
            for item in declared where !groups.contains(item.declared.group) { groups.append(item.declared.group) }
            let items = groups.flatMap { group in declared.filter { $0.declared.group == group } }
            let columns = Self.columns(of: items)
            page +=
                "<table class=\"matrix\"><caption>\(html(service)): \(JSONValue.format(totals.percent))%</caption>\n"
            page += "<tr><th>target</th>" + columns.map { "<th>\(html($0))</th>" }.joined() + "</tr>\n"
            var group: String?
            for item in items {
                if item.declared.group != group {
                    group = item.declared.group
                    page +=
                        "<tr class=\"group\"><th colspan=\"\(columns.count + 1)\">\(html(item.declared.group))</th></tr>\n"
                }
                page += "<tr><th class=\"target\">\(html(item.declared.name)) "
                page += "<span class=\"route\">\(html(item.declared.method)) \(html(item.declared.path))</span></th>"
                for column in columns { page += cell(item, column) }
                page += "</tr>\n"
            }
            page += "</table>\n"
        }
        page += "</section>\n"
    }

    /// One cell: `✓` covered, `✗` declared and not covered, `!` seen but not declared.
    static func cell(_ item: Coverage.Item, _ column: String) -> String {
        if let index = item.declared.statuses.firstIndex(of: column) {
            return item.statusesCovered[index]
                ? "<td class=\"hit\" title=\"covered\">✓</td>" : "<td class=\"miss\" title=\"not covered\">✗</td>"
        }
        if item.undeclared.contains(where: { String($0) == column }) {
            return "<td class=\"undeclared\" title=\"came back, but the description does not declare it\">!</td>"
        }
        return "<td class=\"none\" title=\"not declared\"></td>"
    }

    /// Every status any of `items` declares or saw undeclared: by class, a status before its
    /// range, `default` last.
    static func columns(of items: [Coverage.Item]) -> [String] {
        var keys = Set<String>()
        for item in items {
            keys.formUnion(item.declared.statuses)
            keys.formUnion(item.undeclared.map(String.init))
        }
        func rank(_ key: String) -> (Int, Int, String) {
            if key == "default" { return (9, 0, key) }
            if let status = Int(key) { return (status / 100, 0, key) }
            return (Int(key.prefix(1)) ?? 8, 1, key)
        }
        return keys.sorted { rank($0) < rank($1) }
    }

    /// The matrix's style.
    static let coverageStyle = """
        .coverage h2{font-size:16px;margin:12px 0 4px}.totals span{margin-right:12px}
        table.matrix{border-collapse:collapse;margin:8px 0 16px;font-family:ui-monospace,monospace}
        .matrix caption{text-align:left;font-weight:600;padding:4px 0}
        .matrix th,.matrix td{border:1px solid var(--line);padding:2px 8px;text-align:center}
        .matrix th.target{text-align:left;font-weight:400}.matrix .route{color:gray}
        .matrix tr.group th{text-align:left;background:rgba(128,128,128,.08)}
        .hit{color:var(--pass)}.miss{color:var(--fail)}.undeclared{color:var(--skip);font-weight:700}
        """
}
