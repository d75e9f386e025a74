@testable import FetchKitPostgres

/// Writes replication messages the way a PostgreSQL server does, for the decoding tests (big-endian integers,
/// NUL-terminated strings).
struct PgOutputEncoder {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }
    mutating func ascii(_ scalar: Unicode.Scalar) { bytes.append(UInt8(ascii: scalar)) }
    mutating func int16(_ value: Int16) { integer(UInt64(UInt16(bitPattern: value)), size: 2) }
    mutating func int32(_ value: Int32) { integer(UInt64(UInt32(bitPattern: value)), size: 4) }
    mutating func uint32(_ value: UInt32) { integer(UInt64(value), size: 4) }
    mutating func int64(_ value: Int64) { integer(UInt64(bitPattern: value), size: 8) }
    mutating func position(_ value: LogPosition) { integer(value.value, size: 8) }

    mutating func string(_ text: String) {
        bytes += Array(text.utf8)
        bytes.append(0)
    }

    private mutating func integer(_ value: UInt64, size: Int) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }

    /// The bytes of `message`.
    static func encode(_ message: PgOutputMessage) -> [UInt8] {
        var encoder = PgOutputEncoder()
        encoder.write(message)
        return encoder.bytes
    }

    mutating func write(_ message: PgOutputMessage) {
        switch message {
        case .begin(let final, let time, let xid):
            ascii("B")
            position(final)
            int64(time)
            uint32(xid)
        case .commit(let at, let end, let time):
            ascii("C")
            byte(0)
            position(at)
            position(end)
            int64(time)
        case .origin(let at, let name):
            ascii("O")
            position(at)
            string(name)
        case .relation(let relation):
            ascii("R")
            uint32(relation.id)
            string(relation.namespace)
            string(relation.name)
            byte(relation.replicaIdentity.asciiValue ?? 0)
            int16(Int16(relation.columns.count))
            for column in relation.columns {
                byte(column.isKey ? 1 : 0)
                string(column.name)
                uint32(column.typeID)
                int32(column.typeModifier)
            }
        case .type(let id, let namespace, let name):
            ascii("Y")
            uint32(id)
            string(namespace)
            string(name)
        case .insert(let relation, let new):
            ascii("I")
            uint32(relation)
            ascii("N")
            tuple(new)
        case .update(let relation, let old, let new):
            ascii("U")
            uint32(relation)
            if let old { image(old) }
            ascii("N")
            tuple(new)
        case .delete(let relation, let old):
            ascii("D")
            uint32(relation)
            image(old)
        case .truncate(let relations, let cascade, let restart):
            ascii("T")
            int32(Int32(relations.count))
            byte((cascade ? 1 : 0) | (restart ? 2 : 0))
            for relation in relations { uint32(relation) }
        case .message(let transactional, let at, let prefix, let content):
            ascii("M")
            byte(transactional ? 1 : 0)
            position(at)
            string(prefix)
            int32(Int32(content.count))
            bytes += content
        }
    }

    private mutating func image(_ old: PgOutputMessage.OldImage) {
        switch old {
        case .key(let values):
            ascii("K")
            tuple(values)
        case .row(let values):
            ascii("O")
            tuple(values)
        }
    }

    private mutating func tuple(_ values: [PgOutputMessage.Value]) {
        int16(Int16(values.count))
        for value in values {
            switch value {
            case .null: ascii("n")
            case .unchanged: ascii("u")
            case .text(let text):
                ascii("t")
                int32(Int32(text.utf8.count))
                bytes += Array(text.utf8)
            case .binary(let data):
                ascii("b")
                int32(Int32(data.count))
                bytes += data
            }
        }
    }
}
