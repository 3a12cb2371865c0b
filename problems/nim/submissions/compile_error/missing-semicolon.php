<?php
$x = 1
echo $x ? "Yes\n" : "No\n";
