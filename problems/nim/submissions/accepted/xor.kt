import java.io.DataInputStream

class Input(stream: java.io.InputStream) {
    private val input = DataInputStream(stream.buffered(1 shl 16))

    fun int(): Int {
        var c = input.read()
        while (c <= ' '.toInt()) c = input.read()
        var v = 0
        while (c >= '0'.toInt() && c <= '9'.toInt()) {
            v = v * 10 + (c - '0'.toInt())
            c = input.read()
        }
        return v
    }
}

fun main() {
    val input = Input(System.`in`)
    val n = input.int()
    var x = 0
    repeat(n) { x = x xor input.int() }
    println(if (x != 0) "Yes" else "No")
}
