/// SplitMix64: a small, fast, seedable random number generator, so a randomised test that fails
/// reproduces from the seed it prints.
///
/// ```swift
/// var random = SeededRandom(seed: 42)
/// let n = Int.random(in: 0..<10, using: &random)
/// let m = random.int(1...6)
/// ```
public struct SeededRandom: RandomNumberGenerator, Sendable {
    /// The generator's state; the seed is its first value.
    public var state: UInt64

    /// A generator that starts from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A random integer in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// A random integer in `range`.
    public mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &self) }
}
