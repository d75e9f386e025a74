extension LogPosition {
    /// Where the log's last record ends, for an insert position (`pg_current_wal_insert_lsn()`): right after a page
    /// boundary the server counts the new page's header (24 bytes, or 40 at the start of a segment), which no record
    /// ends in — a feed that received everything stops at the boundary and would never reach the header's end.
    var lastRecordEnd: LogPosition {
        let pageSize: UInt64 = 8_192
        let offset = value % pageSize
        // A segment is a power of two of at least a megabyte: its first page has the long header.
        if offset == 24 || (offset == 40 && value % (1 << 20) == 40) { return LogPosition(value: value - offset) }
        return self
    }
}
