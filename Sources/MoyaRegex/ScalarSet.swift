/// A set of scalars: ranges, general categories and the built-in classes, perhaps negated.
struct ScalarSet: Sendable {
    enum Item: Sendable {
        case range(UInt32, UInt32)
        case category(Set<Unicode.GeneralCategory>, negated: Bool)
        case set(ScalarSet)
        /// The set, matched without regard to case: a scalar is in it when it, or its
        /// lowercase or uppercase form, is in the set.
        case caseless(ScalarSet)
    }

    var items: [Item] = []
    var negated = false

    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        var found = false
        for item in items {
            switch item {
            case .range(let low, let high): found = low <= value && value <= high
            case .category(let categories, let negated):
                found = categories.contains(scalar.properties.generalCategory) != negated
            case .set(let set): found = set.contains(scalar)
            case .caseless(let set):
                found = set.contains(scalar) || Self.simpleForms(of: scalar).contains(where: set.contains)
            }
            if found { break }
        }
        return found != negated
    }

    static func single(_ value: UInt32) -> ScalarSet { ScalarSet(items: [.range(value, value)]) }

    static let digit = ScalarSet(items: [.range(0x30, 0x39)])
    static let word = ScalarSet(items: [.range(0x30, 0x39), .range(0x41, 0x5A), .range(0x61, 0x7A), .range(0x5F, 0x5F)])
    /// ECMA-262's white space and line terminators.
    static let space = ScalarSet(items: [
        .range(0x09, 0x0D), .range(0x20, 0x20), .range(0xA0, 0xA0), .range(0x1680, 0x1680), .range(0x2000, 0x200A),
        .range(0x2028, 0x2029), .range(0x202F, 0x202F), .range(0x205F, 0x205F), .range(0x3000, 0x3000),
        .range(0xFEFF, 0xFEFF),
    ])
    /// `.`: anything but a line terminator.
    static let dot = ScalarSet(
        items: [.range(0x0A, 0x0A), .range(0x0D, 0x0D), .range(0x2028, 0x2029)], negated: true)

    func inverted() -> ScalarSet { ScalarSet(items: [.set(self)], negated: true) }

    /// The set matched without regard to case.
    func caseless() -> ScalarSet { ScalarSet(items: [.caseless(self)]) }

    /// A scalar's lowercase and uppercase forms, where each is one scalar.
    static func simpleForms(of scalar: Unicode.Scalar) -> [Unicode.Scalar] {
        var forms: [Unicode.Scalar] = []
        for mapping in [scalar.properties.lowercaseMapping, scalar.properties.uppercaseMapping] {
            let scalars = mapping.unicodeScalars
            if scalars.count == 1, let form = scalars.first, form != scalar { forms.append(form) }
        }
        return forms
    }

    /// ECMA-262's word characters, for `\b`.
    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x5F: true
        default: false
        }
    }
}
