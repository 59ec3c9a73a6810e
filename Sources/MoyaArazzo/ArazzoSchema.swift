import MoyaSpec

/// The JSON Schema `validate` holds Arazzo 1.0 and 1.1 documents to (draft 2020-12), written for
/// moya-cli from the specification's fixed fields. The repository keeps it at
/// `schema/arazzo.schema.json`, and `ArazzoSchema+Text.swift` is made from that file by
/// `scripts/spec-schema.sh`; tests hold it to the specification's own schema tests.
public enum ArazzoSchema {
    /// Its `$id`.
    public static let id = "https://raw.githubusercontent.com/moya-cli/moya-cli/main/schema/arazzo.schema.json"

    /// The schema's JSON text, the file's bytes.
    public static var text: String { json }
}
