import HashTreeCollections

/// A snapshot's rows by primary key, as handles into its ``EntryStorage``: a persistent hash trie (a change
/// copies O(log n) small nodes of plain integers and shares the rest with the previous snapshot), keyed by
/// `Int64` when every key is an integer — the common case, smaller and cheaper to hash than a ``Value``.
struct ResultsKeyMap: Sendable {
    private enum Storage: Sendable {
        case integers(TreeDictionary<Int64, UInt32>)
        case values(TreeDictionary<Value, UInt32>)
    }

    private var storage: Storage

    /// The handles of `entries` by their rows' `primaryKey` values, which must be unique.
    ///
    /// - Complexity: O(n).
    init<Object>(_ entries: ResultsEntries<Object>, primaryKey: String) {
        var integers: [(Int64, UInt32)] = []
        integers.reserveCapacity(entries.count)
        var values: [(Value, UInt32)]?
        var layout: RowLayout?
        var column: Int?
        for handle in entries.tree {
            let row = entries.row(handle: handle)
            if row.layout !== layout {
                layout = row.layout
                column = row.layout.index(of: primaryKey)
            }
            let key = column.map { row.values[$0] } ?? .null
            if values == nil, case .integer(let integer) = key {
                integers.append((integer, handle))
                continue
            }
            if values == nil { values = integers.map { (.integer($0.0), $0.1) } }
            values?.append((key, handle))
        }
        if let values {
            storage = .values(TreeDictionary(uniqueKeysWithValues: values))
        } else {
            storage = .integers(TreeDictionary(uniqueKeysWithValues: integers))
        }
    }

    /// The handle of the row whose primary key is `key`.
    ///
    /// - Complexity: O(1) expected (hash trie levels are few).
    subscript(key: Value) -> UInt32? {
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
                    var values = TreeDictionary<Value, UInt32>(
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
