<?php
$data = preg_split('/\s+/', trim(stream_get_contents(STDIN)));
$n = (int)$data[0];
$x = 0;
for ($i = 1; $i <= $n; $i++) {
    $x ^= (int)$data[$i];
}
echo $x != 0 ? "Yes\n" : "No\n";
