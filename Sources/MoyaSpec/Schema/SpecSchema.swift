/// The JSON Schema of the spec format (draft 2020-12): what `moya-cli schema` prints, for the
/// YAML language server to complete and check specs as they are written. The repository keeps
/// it at `schema/moya-cli-spec.schema.json`, and `SpecSchema+Text.swift` is made from that file
/// by `scripts/spec-schema.sh`; tests hold the two to each other, and the schema to the
/// compiler's keys.
public enum SpecSchema {
    /// Where the schema is published: its `$id`.
    public static let id = "https://raw.githubusercontent.com/moya-cli/moya-cli/main/schema/moya-cli-spec.schema.json"

    /// The schema's JSON text, the file's bytes.
    public static var text: String { json }
}
