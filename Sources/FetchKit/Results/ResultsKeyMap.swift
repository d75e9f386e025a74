import HashTreeCollections

/// A snapshot's rows by primary key: a persistent hash trie (a change copies O(log n) small nodes and shares
/// the rest with the previous snapshot), keyed by `Int64` when every key is an integer — the common case,
/// 16 bytes smaller per row and cheaper to hash than a ``Value``.
struct ResultsKeyMap: Sendable {
    private enum Storage: Sendable {
        case integers(TreeDictionary<Int64, Row>)
        case values(TreeDictionary<Value, Row>)
    }

    private var storage: Storage

    /// The rows of `rows` by their `primaryKey` values, which must be unique.
    ///
    /// - Complexity: O(n).
    init(_ rows: [Row], primaryKey: String) {
        var integers: [(Int64, Row)] = []
        integers.reserveCapacity(rows.count)
        for row in rows {
            guard case .integer(let key)? = row[primaryKey] else {
                storage = .values(TreeDictionary(uniqueKeysWithValues: rows.lazy.map { ($0[primaryKey] ?? .null, $0) }))
                return
            }
            integers.append((key, row))
        }
        storage = .integers(TreeDictionary(uniqueKeysWithValues: integers))
    }

    /// The row whose primary key is `key`.
    ///
    /// - Complexity: O(1) expected (hash trie levels are few).
    subscript(key: Value) -> Row? {
        get {
            switch storage {
            case .integers(let map):
                guard case .integer(let integer) = key else { return nil }
                return map[integer]
            case .values(let map):
                return map[key]
            }
        }
        set {
            switch storage {
            case .integers(var map):
                if case .integer(let integer) = key {
                    // Release the enum's reference first, so the trie is uniquely held and changes in place.
                    storage = .values([:])
                    map[integer] = newValue
                    storage = .integers(map)
                } else {
                    var values = TreeDictionary<Value, Row>(
                        uniqueKeysWithValues: map.lazy.map { (.integer($0.key), $0.value) })
                    values[key] = newValue
                    storage = .values(values)
                }
            case .values(var map):
                storage = .values([:])
                map[key] = newValue
                storage = .values(map)
            }
        }
    }
}
