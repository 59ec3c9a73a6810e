import MoyaHTTP
import MoyaSpec

extension GeneratedFile {
    // MARK: - Models

    /// The models the targets' schemas describe, nested in the service's type, and a typed
    /// call for each target with a response schema. Nothing when no target has a schema.
    mutating func writeModels() {
        guard let plan = models, !plan.models.isEmpty || !plan.responses.isEmpty else { return }
        line()
        line("// MARK: - Models")
        writeModelTypes(plan)
        writeTypedCalls(plan)
    }

    /// The models, in an extension of the service's type: Foundation's and `JSONValue` are
    /// all the types they use.
    mutating func writeModelTypes(_ plan: ModelPlan) {
        if !plan.models.isEmpty {
            line()
            line("extension \(typeName) {")
            for (index, model) in plan.models.enumerated() {
                if index > 0 { line() }
                writeModel(model)
            }
            if plan.boxes {
                line()
                for text in Self.indirectType(level: level) { line(text.isEmpty ? "" : "    " + text) }
            }
            if plan.discriminates {
                line()
                for text in Self.modelKeyType { line(text.isEmpty ? "" : "    " + text) }
            }
            line("}")
        }
    }

    mutating func writeModel(_ model: Model) {
        if let summary = model.summary { line("    /// \(summary)") }
        switch model.declaration {
        case .alias(let type):
            line("    \(level)typealias \(model.name) = \(type.code)")
        case .structure(let properties):
            writeStructure(model.name, properties)
        case .stringEnum(let cases):
            writeStringEnum(model.name, cases)
        case .union(let cases, let discriminator):
            writeUnion(model.name, cases, discriminator: discriminator)
        }
    }

    mutating func writeStructure(_ name: String, _ properties: [ModelProperty]) {
        line("    \(level)struct \(name): Codable, Hashable, Sendable {")
        for property in properties {
            if let summary = property.summary { line("        /// \(summary)") }
            if property.boxed {
                let storage = "_" + SwiftName.bare(property.name)
                let get = property.type.isOptional ? "\(storage)?.value" : "\(storage).value"
                let set =
                    property.type.isOptional
                    ? "\(storage) = newValue.map(Indirect.init)" : "\(storage) = Indirect(newValue)"
                line("        \(level)var \(property.name): \(property.type.code) {")
                line("            get { \(get) }")
                line("            set { \(set) }")
                line("        }")
                let boxed = "Indirect<\(property.type.unwrapped.code)>" + (property.type.isOptional ? "?" : "")
                line("        private var \(storage): \(boxed)")
            } else {
                line("        \(level)var \(property.name): \(property.type.code)")
            }
        }
        if !properties.isEmpty { line() }
        // The memberwise initializer, public where the type is.
        let arguments = properties.map { property in
            "\(property.name): \(property.type.code)" + (property.type.isOptional ? " = nil" : "")
        }
        let single = "        \(level)init(\(arguments.joined(separator: ", "))) {"
        if single.count <= Code.width {
            line(single)
        } else {
            line("        \(level)init(")
            for (index, argument) in arguments.enumerated() {
                line("            " + argument + (index < arguments.count - 1 ? "," : ""))
            }
            line("        ) {")
        }
        for property in properties {
            let bare = SwiftName.bare(property.name)
            if property.boxed {
                let value =
                    property.type.isOptional ? "\(property.name).map(Indirect.init)" : "Indirect(\(property.name))"
                line("            self._\(bare) = \(value)")
            } else {
                line("            self.\(bare) = \(property.name)")
            }
        }
        line("        }")
        let renamed = properties.contains { $0.boxed || SwiftName.bare($0.name) != $0.key }
        if renamed {
            line()
            line("        enum CodingKeys: String, CodingKey {")
            for property in properties {
                let member = property.boxed ? "_" + SwiftName.bare(property.name) : property.name
                if SwiftName.bare(member) == property.key {
                    line("            case \(member)")
                } else {
                    line("            case \(member) = \(SwiftName.literal(property.key))")
                }
            }
            line("        }")
        }
        line("    }")
    }

    mutating func writeStringEnum(_ name: String, _ cases: [(member: String, value: String)]) {
        line("    \(level)enum \(name): Codable, Hashable, Sendable, RawRepresentable {")
        for option in cases { line("        case \(option.member)") }
        line("        /// A value the description did not list when this file was generated.")
        line("        case unknown(String)")
        line()
        line("        \(level)init(rawValue: String) {")
        line("            switch rawValue {")
        for option in cases {
            line("            case \(SwiftName.literal(option.value)):")
            line("                self = .\(option.member)")
        }
        line("            default:")
        line("                self = .unknown(rawValue)")
        line("            }")
        line("        }")
        line()
        line("        \(level)var rawValue: String {")
        line("            switch self {")
        for option in cases {
            line("            case .\(option.member):")
            line("                \(SwiftName.literal(option.value))")
        }
        line("            case .unknown(let value):")
        line("                value")
        line("            }")
        line("        }")
        line()
        line("        \(level)init(from decoder: any Decoder) throws {")
        line("            self.init(rawValue: try decoder.singleValueContainer().decode(String.self))")
        line("        }")
        line()
        line("        \(level)func encode(to encoder: any Encoder) throws {")
        line("            var container = encoder.singleValueContainer()")
        line("            try container.encode(rawValue)")
        line("        }")
        line("    }")
    }

    mutating func writeUnion(
        _ name: String, _ cases: [(member: String, type: ModelType)],
        discriminator: (property: String, values: [(value: String, member: String)])?
    ) {
        line("    \(level)indirect enum \(name): Codable, Hashable, Sendable {")
        for option in cases { line("        case \(option.member)(\(option.type.code))") }
        line()
        line("        \(level)init(from decoder: any Decoder) throws {")
        line("            let container = try decoder.singleValueContainer()")
        if let discriminator {
            let key = "ModelKey(\(SwiftName.literal(discriminator.property)))"
            line("            let keyed = try? decoder.container(keyedBy: ModelKey.self)")
            line("            switch try? keyed?.decode(String.self, forKey: \(key)) {")
            var written: Set<String> = []
            for value in discriminator.values where written.insert(value.value).inserted {
                guard let option = cases.first(where: { $0.member == value.member }) else { continue }
                line("            case \(SwiftName.literal(value.value))?:")
                line("                self = .\(option.member)(try container.decode(\(option.type.code).self))")
                line("                return")
            }
            line("            default:")
            line("                break")
            line("            }")
        }
        for (index, option) in cases.enumerated() {
            let keyword = index == 0 ? "if" : "} else if"
            line("            \(keyword) let value = try? container.decode(\(option.type.code).self) {")
            line("                self = .\(option.member)(value)")
        }
        line(cases.isEmpty ? "            do {" : "            } else {")
        line("                throw DecodingError.dataCorruptedError(")
        line(
            "                    in: container, debugDescription: \(SwiftName.literal("matches none of \(name)'s schemas")))"
        )
        line("            }")
        line("        }")
        line()
        line("        \(level)func encode(to encoder: any Encoder) throws {")
        line("            var container = encoder.singleValueContainer()")
        line("            switch self {")
        for option in cases {
            line("            case .\(option.member)(let value):")
            line("                try container.encode(value)")
        }
        line("            }")
        line("        }")
        line("    }")
    }

    // MARK: - Typed calls

    /// `Call`, a target with the type its response decodes to, a static function for each
    /// target with a response schema, and the provider's `request` that sends one.
    mutating func writeTypedCalls(_ plan: ModelPlan) {
        let typed = service.targets.compactMap { target in plan.responses[target.name].map { (target, $0) } }
        guard !typed.isEmpty else { return }
        line()
        line("extension \(typeName) {")
        let example = "." + caseName(typed[0].0) + (typed[0].0.params.isEmpty ? "" : "(…)")
        line("    /// A target and the type its response decodes to. `provider.request(\(example))`")
        line("    /// where a value of that type is expected sends the target and decodes its response;")
        line("    /// elsewhere it is the target itself, and the plain `Response` comes back.")
        line("    \(level)struct Call<Success: Sendable>: Sendable {")
        line("        \(level)let target: \(typeName)")
        line("        \(level)let decode: @Sendable (Response) throws -> Success")
        line()
        line("        \(level)init(target: \(typeName), decode: @escaping @Sendable (Response) throws -> Success) {")
        line("            self.target = target")
        line("            self.decode = decode")
        line("        }")
        line()
        line("        /// Decodes a response's body as JSON.")
        line("        \(level)static func json<Value: Decodable & Sendable>(")
        line("            _ type: Value.Type")
        line("        ) -> @Sendable (Response) throws -> Value {")
        line("            { response in try JSONDecoder().decode(Value.self, from: response.data) }")
        line("        }")
        line("    }")
        line("}")
        // One extension for each response type, in the order the targets first name it.
        var order: [ModelType] = []
        for (_, type) in typed where !order.contains(type) { order.append(type) }
        for type in order {
            line()
            let success = qualified(type)
            line("extension \(typeName).Call where Success == \(success) {")
            for (index, (target, _)) in typed.filter({ $0.1 == type }).enumerated() {
                if index > 0 { line() }
                writeTypedCall(target, success: success)
            }
            line("}")
        }
        line()
        line("extension MoyaProvider where Target == \(typeName) {")
        line("    /// Sends `call`'s target and decodes its response; a body that does not decode is")
        line("    /// `MoyaError.objectMapping`.")
        line(
            "    \(level)func request<Success>(_ call: \(typeName).Call<Success>) async throws(MoyaError) -> Success {")
        line("        let response = try await request(call.target)")
        line("        do {")
        line("            return try call.decode(response)")
        line("        } catch {")
        line("            throw MoyaError.objectMapping(error, response)")
        line("        }")
        line("    }")
        line("}")
    }

    mutating func writeTypedCall(_ target: TargetSpec, success: String) {
        let declaration = caseDeclaration(target, qualified: true)
        let arguments = target.params.map { (label: Optional(label($0)), value: Code.raw(label($0))) }
        let made: Code = arguments.isEmpty ? .raw(".\(declaration.name)") : .call(".\(declaration.name)", arguments)
        if let summary = target.summary { line("    /// \(SwiftName.comment(summary))") }
        let head =
            "    \(level)static func \(declaration.name)(\(declaration.values.joined(separator: ", "))) -> Self {"
        if head.count <= Code.width {
            line(head)
        } else {
            line("    \(level)static func \(declaration.name)(")
            for (index, value) in declaration.values.enumerated() {
                line("        " + value + (index < declaration.values.count - 1 ? "," : ""))
            }
            line("    ) -> Self {")
        }
        let body = Code.call(
            "Self", [("target", made), ("decode", .raw("Self.json(\(success).self)"))])
        for text in body.lines(indent: "        ") { line(text) }
        line("    }")
    }

    /// A model type as code outside the service's type.
    func qualified(_ type: ModelType) -> String {
        switch type {
        case .named(let name): "\(typeName).\(name)"
        case .array(let element): "[\(qualified(element))]"
        case .dictionary(let value): "[String: \(qualified(value))]"
        case .optional(let wrapped): qualified(wrapped) + "?"
        default: type.code
        }
    }

    static func indirectType(level: String) -> [String] {
        [
            "/// A value stored apart, so that a struct may contain itself.",
            "\(level)final class Indirect<Value: Codable & Hashable & Sendable>: Codable, Hashable, Sendable {",
            "    \(level)let value: Value",
            "",
            "    \(level)init(_ value: Value) {",
            "        self.value = value",
            "    }",
            "",
            "    \(level)init(from decoder: any Decoder) throws {",
            "        value = try decoder.singleValueContainer().decode(Value.self)",
            "    }",
            "",
            "    \(level)func encode(to encoder: any Encoder) throws {",
            "        var container = encoder.singleValueContainer()",
            "        try container.encode(value)",
            "    }",
            "",
            "    \(level)static func == (lhs: Indirect, rhs: Indirect) -> Bool {",
            "        lhs.value == rhs.value",
            "    }",
            "",
            "    \(level)func hash(into hasher: inout Hasher) {",
            "        hasher.combine(value)",
            "    }",
            "}",
        ]
    }

    static let modelKeyType = [
        "/// A JSON member's name, for reading a discriminator.",
        "struct ModelKey: CodingKey {",
        "    var stringValue: String",
        "    var intValue: Int? { nil }",
        "",
        "    init(_ name: String) {",
        "        stringValue = name",
        "    }",
        "",
        "    init(stringValue: String) {",
        "        self.stringValue = stringValue",
        "    }",
        "",
        "    init?(intValue: Int) {",
        "        nil",
        "    }",
        "}",
    ]
}
