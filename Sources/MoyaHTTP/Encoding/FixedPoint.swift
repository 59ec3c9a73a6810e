/// Non-negative numbers with a fixed number of decimal places, such as `0.5` or `1.250`,
/// without Foundation's locale-aware formatters.
public enum FixedPoint {
    /// `value` with `places` decimal places, rounded; a negative or non-finite value is 0.
    public static func format(_ value: Double, places: Int) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        // Clamped to what an Int holds, so no value from input can trap the conversion.
        let product = (value * Double(scale)).rounded()
        let scaled = product.isFinite ? Int(min(max(product, 0), 9.0e18)) : 0
        guard places > 0 else { return String(scaled) }
        let fraction = String(scaled % scale)
        return "\(scaled / scale)." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}
