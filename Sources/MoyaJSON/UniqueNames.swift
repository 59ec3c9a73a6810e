extension Set where Element == String {
    /// `base`, or `base2`, `base3`, … when it is taken: the first name not in the set, which
    /// is then taken. What names made from others' names (a tool's service prefix, a bundled
    /// schema's `$defs` entry, a request item's param) use to stay apart.
    package mutating func takeUnique(_ base: String) -> String {
        var name = base
        var counter = 2
        while contains(name) {
            name = base + String(counter)
            counter += 1
        }
        insert(name)
        return name
    }
}
