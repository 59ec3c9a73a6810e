import MoyaHTTP
import MoyaSpec
import OpenAPIKit

extension Importer {
    /// Query params that send a cursor back, their names folded (`foldedName`).
    static let cursorParams: Set<String> = [
        "cursor", "pagecursor", "pagetoken", "nextpagetoken", "nexttoken", "continuationtoken", "continuation",
        "startingafter", "after", "marker",
    ]
    /// Body members that hold the next page's cursor.
    static let cursorMembers: Set<String> = [
        "nextcursor", "nextpagecursor", "nextpagetoken", "nexttoken", "continuationtoken", "nextmarker", "endcursor",
    ]
    /// Body members that hold the next page's URL.
    static let nextURLMembers: Set<String> = [
        "next", "nexturl", "nexturi", "nextpage", "nextpageurl", "nextpageuri", "nextlink", "odatanextlink",
    ]
    /// The members of a link object that hold its URL: HAL's `href`, Asana's `uri`.
    static let linkMembers = ["href", "uri", "url"]
    /// Query params that number pages, and those that skip items.
    static let pageParams: Set<String> = ["page", "pagenumber", "pageno"]
    static let offsetParams: Set<String> = ["offset", "skip"]
    /// Query params that say how many items a page holds.
    static let sizeParams: Set<String> = ["limit", "pagesize", "perpage", "size", "count", "top"]
    /// The members most often holding a page's items, for a body with more than one array.
    static let itemMembers = [
        "data", "items", "results", "records", "entries", "values", "elements", "list", "content", "hits", "objects",
    ]

    /// A name lowercased, without `_`, `-`, `.`, `@` and `$`: `next_page_token`, `nextPageToken`
    /// and `@odata.nextLink` fold as one.
    static func foldedName(_ name: String) -> String {
        String(name.lowercased().filter { !"_-.@$".contains($0) })
    }

    /// The `paginate:` of a GET target whose success response has a shape pages are known by,
    /// with a note saying which: a `Link` header (`next: link`); a next URL in the body; a
    /// cursor query param the body gives back; a page number or an offset. The items are the
    /// body when it is an array, else its one array member (or the usual one of several).
    /// `query` is the target's query, each entry's value its param's `{name}`.
    mutating func pagination(
        of endpoint: ResolvedEndpoint, into target: inout ImportedSpec.Target, query: [ImportedSpec.Entry],
        at pointer: [String]
    ) {
        guard endpoint.method == .get,
            let (code, response) = endpoint.responses.filter({ $0.key.isSuccess }).min(by: {
                Self.order($0.key) < Self.order($1.key)
            }).map({ ($0.key, $0.value) }),
            // JSON, or a wildcard, which import reads as JSON too.
            let schema = response.content.first(where: {
                JSONValue.isJSONMediaType($0.key.rawValue) || $0.key.rawValue.contains("*")
            })?.value.schema
        else { return }
        // The body is the array of items, or an object holding it: the names of its arrays.
        var arrays: [String]?
        var members: [(key: String, value: DereferencedJSONSchema)] = []
        switch schema {
        case .array: arrays = nil
        case .object(_, let object):
            members = object.properties.map { (key: $0.key, value: $0.value) }
            arrays = members.filter { if case .array = $0.value { true } else { false } }.map(\.key)
        default:
            // A schema with no type (`items:` alone, as some documents write an array): the
            // sample made from it has the body's shape.
            switch target.sample?.json {
            case .array?: arrays = nil
            case .object(let sampled)?:
                arrays = sampled.filter { if case .array = $0.value { true } else { false } }.map(\.key)
            default: return
            }
        }
        var items: String?
        if let arrays {
            let sorted = arrays.sorted()
            guard let member = sorted.count == 1 ? sorted.first : Self.itemMembers.first(where: sorted.contains)
            else { return }
            items = Self.path([member])
        }
        // The query's params by their folded names.
        var queryParams: [(folded: String, param: ImportedSpec.Param, index: Int)] = []
        for entry in query {
            guard case .data(let text)? = entry.value.pieces.first, text.hasPrefix("{"), text.hasSuffix("}"),
                let index = target.params.firstIndex(where: { "{\($0.name)}" == text })
            else { continue }
            queryParams.append((Self.foldedName(entry.key), target.params[index], index))
        }
        let next: String
        let why: String
        if response.headers?.keys.contains(where: { $0.lowercased() == "link" }) == true {
            next = "link"
            why = "its \(code.rawValue) response declares a Link header"
        } else if let url = Self.member(in: members, named: Self.nextURLMembers, where: Self.isURL) {
            next = "{ url: \(YAMLText.scalar(Self.path(url), inFlow: true)) }"
            why = "its \(code.rawValue) response has a next URL at \(Self.path(url))"
        } else if let cursor = queryParams.first(where: { Self.cursorParams.contains($0.folded) && $0.param.optional }),
            let from = Self.member(in: members, named: Self.cursorMembers, where: { Self.scalarType($0) == "string" })
        {
            next = "{ param: \(cursor.param.name), from: \(YAMLText.scalar(Self.path(from), inFlow: true)) }"
            why = "the query param '\(cursor.param.name)' takes back the cursor at \(Self.path(from))"
        } else if let page = queryParams.first(where: { Self.pageParams.contains($0.folded) && $0.param.type == "int" })
        {
            if target.params[page.index].defaultValue == nil {
                // The first page: 1, or the least the param's rules allow (`minimum: 2`, found by
                // the openapi fuzz target, made a default that broke its own rule).
                var first = 1
                for rule in target.params[page.index].rules {
                    if rule.key == "minimum", case .integer(let least) = rule.value { first = max(first, least) }
                    if rule.key == "exclusiveMinimum", case .integer(let least) = rule.value {
                        first = max(first, least &+ 1)
                    }
                }
                target.params[page.index].defaultValue = .integer(first)
            }
            next = "{ param: \(page.param.name), increment: 1 }"
            why = "the query param '\(page.param.name)' numbers the pages"
        } else if let offset = queryParams.first(where: {
            Self.offsetParams.contains($0.folded) && $0.param.type == "int"
        }),
            let size = queryParams.first(where: { Self.sizeParams.contains($0.folded) }),
            case .integer(let step)? = size.param.defaultValue, step > 0
        {
            if target.params[offset.index].defaultValue == nil {
                target.params[offset.index].defaultValue = .integer(0)
            }
            next = "{ param: \(offset.param.name), increment: \(step) }"
            why = "the query param '\(offset.param.name)' skips items, \(step) a page as '\(size.param.name)' says"
        } else {
            return
        }
        let itemsText = items.map { "items: \(YAMLText.scalar($0, inFlow: true)), " } ?? ""
        let paginate = "{ \(itemsText)next: \(next) }"
        target.paginate = paginate
        note(pointer, "paginate: \(paginate), since \(why)")
    }

    /// The path to a member of `members` (or of an object member of them, one level down; an
    /// object with an `href`, `uri` or `url` that fits is a link) whose folded name is in
    /// `names` and whose schema `fits`.
    static func member(
        in members: [(key: String, value: DereferencedJSONSchema)], named names: Set<String>,
        where fits: (DereferencedJSONSchema) -> Bool
    ) -> [String]? {
        for (key, schema) in members.sorted(by: { $0.key < $1.key }) where names.contains(foldedName(key)) {
            if fits(schema) { return [key] }
            if let inner = link(schema, fits) { return [key, inner] }
        }
        for (key, schema) in members.sorted(by: { $0.key < $1.key }) {
            guard case .object(_, let object) = schema else { continue }
            for (inner, value) in object.properties.sorted(by: { $0.key < $1.key })
            where names.contains(foldedName(inner)) {
                if fits(value) { return [key, inner] }
                if let member = link(value, fits) { return [key, inner, member] }
            }
        }
        return nil
    }

    /// The member holding the URL of a link object (`linkMembers`) whose schema `fits`.
    static func link(_ schema: DereferencedJSONSchema, _ fits: (DereferencedJSONSchema) -> Bool) -> String? {
        guard case .object(_, let object) = schema else { return nil }
        return linkMembers.first { object.properties[$0].map(fits) == true }
    }

    /// Whether a schema is a string, as a next URL is.
    static func isURL(_ schema: DereferencedJSONSchema) -> Bool {
        scalarType(schema) == "string"
    }

    /// A JSON path to a member: `$.a.b`, or `$['@odata.nextLink']` where a name is not a plain one.
    static func path(_ names: [String]) -> String {
        "$"
            + names.map { name in
                let plain =
                    !name.isEmpty && name.first?.isNumber == false
                    && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
                return plain ? "." + name : "['" + name.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "']"
            }.joined()
    }
}
