import Synchronization

/// A bounded table of shared values: what thousands of controllers of one request shape would each build alike
/// (a row layout, the set of tables a request reads) is built once and shared.
///
/// The first `capacity` distinct keys keep their value for the life of the process; later ones get a value of
/// their own, built each time (past that many, the keys are likely made on the fly, and keeping them all would
/// cost more than it saves).
struct InternTable<Key: Hashable, Value>: ~Copyable {
    private var values: [Key: Value] = [:]
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// How many values are kept.
    var count: Int { values.count }

    /// The kept value of `key`, made by `make` and kept now if there is room; a value of its own otherwise.
    ///
    /// - Complexity: O(1) hashing of `key`, plus `make` when it is not kept.
    mutating func value(for key: Key, make: (Key) -> Value) -> Value {
        if let value = values[key] { return value }
        let value = make(key)
        if values.count < capacity { values[key] = value }
        return value
    }
}

extension Set where Element == String {
    /// An equal set sharing its storage with every other set of these names interned before: the tables a
    /// request reads and the columns its predicate tests, kept by each of thousands of controllers.
    ///
    /// - Complexity: O(*n*) to hash the names.
    func interned() -> Set<String> {
        internedNameSets.withLock { table in table.value(for: self) { $0 } }
    }
}

extension SortKeyOrder {
    /// An equal order sharing its storage with every other equal order interned before: the order of each
    /// of thousands of controllers sorting alike.
    ///
    /// - Complexity: O(*c*) to hash the *c* components.
    func interned() -> SortKeyOrder {
        internedOrders.withLock { table in table.value(for: self) { $0 } }
    }
}

/// The name sets ``Swift/Set/interned()`` hands out.
private let internedNameSets = Mutex(InternTable<Set<String>, Set<String>>(capacity: 4_096))
/// The orders ``SortKeyOrder/interned()`` hands out.
private let internedOrders = Mutex(InternTable<SortKeyOrder, SortKeyOrder>(capacity: 4_096))
