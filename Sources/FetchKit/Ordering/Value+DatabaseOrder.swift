import Foundation

extension Value {
    /// Compares two values in the order a store's `ORDER BY` puts them, ascending.
    ///
    /// The order is total and identical to the SQL FetchKit compiles (SQLite's rules, which every
    /// backend's compiled order reproduces):
    /// - `NULL` first, then numbers, then text, then binary data;
    /// - integers, doubles, booleans (0 and 1) and dates (microseconds since 1970) compare numerically
    ///   with one another, exactly: `2^53 + 1` is greater than the double `2^53`, and `-0.0` equals `0`;
    /// - text compares by UTF-8 bytes (code point order, the binary / `"C"` collation), not by Swift's
    ///   `String` `<`; with `caseInsensitive` the case-folded texts compare (`fetchKitCaseFolded`), as every
    ///   backend folds;
    /// - binary data compares byte by byte, then the shorter first.
    ///
    /// A descending sort is this order reversed, `NULL` last included. `NaN` cannot be stored (SQLite
    /// reads it back as `NULL`), so it orders as `NULL`.
    ///
    /// ```swift
    /// Value.databaseOrder(.null, 0)                    // .orderedAscending
    /// Value.databaseOrder(.integer(1), .double(1.0))   // .orderedSame
    /// Value.databaseOrder("Z", "a")                    // .orderedAscending (code points)
    /// Value.databaseOrder("Z", "a", caseInsensitive: true)   // .orderedDescending
    /// ```
    ///
    /// - Complexity: O(1) for numbers; O(*m*) for text and data of length *m* (case folding allocates).
    public static func databaseOrder(_ lhs: Value, _ rhs: Value, caseInsensitive: Bool = false) -> ComparisonResult {
        let left = lhs.orderClass
        let right = rhs.orderClass
        if left != right { return left < right ? .orderedAscending : .orderedDescending }
        switch (lhs, rhs) {
        case (.text(let a), .text(let b)):
            if caseInsensitive { return compareBytes(a.fetchKitCaseFolded.utf8, b.fetchKitCaseFolded.utf8) }
            return compareBytes(a.utf8, b.utf8)
        case (.blob(let a), .blob(let b)):
            return compareBytes(a, b)
        default:
            guard let a = lhs.orderNumber, let b = rhs.orderNumber else { return .orderedSame }
            return a.compare(to: b)
        }
    }

    /// Whether `self` comes before `other` in a store's `ORDER BY` on one sort key.
    ///
    /// ```swift
    /// Value.null.precedes(1)                        // true: NULLs first ascending
    /// Value.null.precedes(1, ascending: false)      // false: NULLs last descending
    /// ```
    ///
    /// - Complexity: as ``databaseOrder(_:_:caseInsensitive:)``.
    public func precedes(_ other: Value, ascending: Bool = true, caseInsensitive: Bool = false) -> Bool {
        let order = Value.databaseOrder(self, other, caseInsensitive: caseInsensitive)
        return ascending ? order == .orderedAscending : order == .orderedDescending
    }

    /// The storage class rank: NULL, number, text, binary.
    var orderClass: Int {
        switch self {
        case .null: return 0
        case .double(let d) where d.isNaN: return 0
        case .integer, .double, .bool, .date: return 1
        case .text: return 2
        case .blob: return 3
        }
    }

    /// The number a numeric value is stored as, or `nil` for `NULL`, `NaN`, text and data.
    var orderNumber: OrderNumber? {
        switch self {
        case .integer(let i): return .integer(i)
        case .bool(let b): return .integer(b ? 1 : 0)
        case .date(let d): return .integer(d.microsecondsSince1970)
        case .double(let d): return d.isNaN ? nil : .double(d)
        case .null, .text, .blob: return nil
        }
    }
}

/// A stored number: an exact 64-bit integer or a double, compared exactly with each other.
enum OrderNumber {
    case integer(Int64)
    case double(Double)

    func compare(to other: OrderNumber) -> ComparisonResult {
        switch (self, other) {
        case (.integer(let a), .integer(let b)):
            return a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
        case (.double(let a), .double(let b)):
            return a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
        case (.integer(let a), .double(let b)):
            return OrderNumber.compare(a, b)
        case (.double(let a), .integer(let b)):
            switch OrderNumber.compare(b, a) {
            case .orderedAscending: return .orderedDescending
            case .orderedDescending: return .orderedAscending
            case .orderedSame: return .orderedSame
            }
        }
    }

    /// Compares an integer with a (non-NaN) double without rounding either.
    static func compare(_ integer: Int64, _ double: Double) -> ComparisonResult {
        // 2^63 is exactly representable; every double at or past it is beyond Int64.
        if double >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if double < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let floor = double.rounded(.down)
        let whole = Int64(floor)  // exact: floor lies in [-2^63, 2^63)
        if integer < whole { return .orderedAscending }
        if integer > whole { return .orderedDescending }
        return floor == double ? .orderedSame : .orderedAscending
    }
}

/// Compares two byte sequences lexicographically, the shorter first when one is a prefix of the other
/// (SQLite's `memcmp` then length).
func compareBytes<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ a: A, _ b: B) -> ComparisonResult {
    var left = a.makeIterator()
    var right = b.makeIterator()
    while true {
        switch (left.next(), right.next()) {
        case (nil, nil): return .orderedSame
        case (nil, _): return .orderedAscending
        case (_, nil): return .orderedDescending
        case (let x?, let y?):
            if x != y { return x < y ? .orderedAscending : .orderedDescending }
        }
    }
}
