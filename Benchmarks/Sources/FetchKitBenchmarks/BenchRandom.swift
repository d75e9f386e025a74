/// SplitMix64, so every run of a benchmark sees the same data.
struct BenchRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    static let words = [
        "Buy", "milk", "write", "the", "report", "call", "Anna", "fix", "bug", "plan", "trip",
        "review", "pull", "request", "book", "flights", "pay", "rent", "water", "plants"
    ]

    /// A task-like title of two to four words.
    static func title(using random: inout BenchRandom) -> String {
        (0..<Int.random(in: 2...4, using: &random)).map { _ in words.randomElement(using: &random) ?? "" }
            .joined(separator: " ")
    }
}
