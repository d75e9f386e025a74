import HashTreeCollections

/// A snapshot's rows by primary key, as handles into its ``EntryStorage``; persistent, so a change copies
/// O(log n) small nodes and shares the rest with the previous snapshot.
///
/// Integer keys — the common case — live in a ``ResultsTree`` ordered by key whose nodes hold only plain
/// integers (16 bytes a row, searched without hashing); any other key moves the map to a hash trie of
/// ``Value``s.
struct ResultsKeyMap: Sendable {
    /// A primary key and the handle of its row.
    struct KeyedHandle: Sendable, Equatable {
        var key: Int64
        var handle: UInt32
    }

    private enum Storage: Sendable {
        case integers(ResultsTree<KeyedHandle, Int64>)
        case values(TreeDictionary<Value, UInt32>)
    }

    private var storage: Storage

    /// The handles of `entries` by their rows' `primaryKey` values, which must be unique.
    ///
    /// - Complexity: O(n log n).
    init<Object>(_ entries: ResultsEntries<Object>, primaryKey: String) {
        var integers: [KeyedHandle] = []
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
            let key = column.map { row.value(at: $0) } ?? .null
            if values == nil, case .integer(let integer) = key {
                integers.append(KeyedHandle(key: integer, handle: handle))
                continue
            }
            if values == nil { values = integers.map { (.integer($0.key), $0.handle) } }
            values?.append((key, handle))
        }
        if let values {
            storage = .values(TreeDictionary(uniqueKeysWithValues: values))
        } else {
            integers.sort { $0.key < $1.key }
            storage = .integers(
                integers.isEmpty ? ResultsTree(sharing: emptyKeys) : ResultsTree(integers, separator: \.key))
        }
    }

    /// The handle of the row whose primary key is `key`.
    ///
    /// - Complexity: O(log n).
    subscript(key: Value) -> UInt32? {
        get {
            switch storage {
            case .integers(let tree):
                guard case .integer(let integer) = key else { return nil }
                return Self.find(integer, in: tree).flatMap { $0.element.key == integer ? $0.element.handle : nil }
            case .values(let map):
                return map[key]
            }
        }
        set {
            switch storage {
            case .integers(var tree):
                guard case .integer(let integer) = key else {
                    var values = TreeDictionary<Value, UInt32>(
                        uniqueKeysWithValues: tree.lazy.map { (.integer($0.key), $0.handle) })
                    values[key] = newValue
                    storage = .values(values)
                    return
                }
                // Release the enum's reference first, so the tree is uniquely held and changes in place.
                storage = .values([:])
                Self.set(integer, to: newValue, in: &tree)
                storage = .integers(tree)
            case .values(var map):
                storage = .values([:])
                map[key] = newValue
                storage = .values(map)
            }
        }
    }

    /// The first entry whose key is not less than `key`.
    private static func find(
        _ key: Int64, in tree: ResultsTree<KeyedHandle, Int64>
    ) -> (index: Int, element: KeyedHandle)? {
        tree.partitioningElement(separator: { $0 >= key }, element: { $0.key >= key })
    }

    private static func set(_ key: Int64, to handle: UInt32?, in tree: inout ResultsTree<KeyedHandle, Int64>) {
        let found = find(key, in: tree)
        let index = found?.index ?? tree.count
        switch (found?.element.key == key, handle) {
        case (true, let handle?):
            tree.replace(at: index, with: KeyedHandle(key: key, handle: handle), separator: \.key)
        case (true, nil):
            tree.remove(at: index, separator: \.key)
        case (false, let handle?):
            tree.insert(KeyedHandle(key: key, handle: handle), at: index, separator: \.key)
        case (false, nil):
            break
        }
    }
}

/// The root every empty key map shares (a fetch that finds no row allocates none).
private let emptyKeys = ResultsTreeNode<ResultsKeyMap.KeyedHandle, Int64>(elements: [])
