-- `and`/`or` chains with short-circuit side effects (every evaluated operand prints),
-- long runs in value, `if`, `while`, `repeat` and `not` positions, mixed with
-- comparisons and arithmetic in one run.
local log = {}
local function p(tag, v) log[#log + 1] = tag return v end
local function flush(what) print(what, table.concat(log, ' ')) log = {} end
local T, F = true, false
local v0 = p(0, 1) or p(1, 0) and p(2, false)
flush('v0 ' .. tostring(v0))
if p(0, 1) or p(1, 0) and p(2, false) then flush('if0 then') else flush('if0 else') end
if not (p(0, 1) or p(1, 0) and p(2, false)) then flush('not0 then') else flush('not0 else') end
local v1 = p(0, T) and p(1, 1) and p(2, 0) and p(3, nil) and p(4, F)
flush('v1 ' .. tostring(v1))
if p(0, T) and p(1, 1) and p(2, 0) and p(3, nil) and p(4, F) then flush('if1 then') else flush('if1 else') end
if not (p(0, T) and p(1, 1) and p(2, 0) and p(3, nil) and p(4, F)) then flush('not1 then') else flush('not1 else') end
local v2 = p(0, 1) and p(1, false) and p(2, 1) or p(3, nil) and p(4, F) and p(5, F) and p(6, 's') or p(7, nil)
  and p(8, nil) or p(9, 1) or p(10, 's') and p(11, false) or p(12, T) and p(13, 0) and p(14, 0) or
  p(15, 0) or p(16, 's') and p(17, 1) and p(18, 1) and p(19, 0)
flush('v2 ' .. tostring(v2))
if p(0, 1) and p(1, false) and p(2, 1) or p(3, nil) and p(4, F) and p(5, F) and p(6, 's') or p(7, nil)
  and p(8, nil) or p(9, 1) or p(10, 's') and p(11, false) or p(12, T) and p(13, 0) and p(14, 0) or
  p(15, 0) or p(16, 's') and p(17, 1) and p(18, 1) and p(19, 0) then flush('if2 then') else flush('if2 else') end
if not (p(0, 1) and p(1, false) and p(2, 1) or p(3, nil) and p(4, F) and p(5, F) and p(6, 's') or p(7, nil)
  and p(8, nil) or p(9, 1) or p(10, 's') and p(11, false) or p(12, T) and p(13, 0) and p(14, 0) or
  p(15, 0) or p(16, 's') and p(17, 1) and p(18, 1) and p(19, 0)) then flush('not2 then') else flush('not2 else') end
local v3 = p(0, 's') and p(1, 0) and p(2, T) and p(3, 1) and p(4, T) and p(5, T) and p(6, 's') and p(7, 0) and
  p(8, 1) and p(9, 1) and p(10, 's') and p(11, T) and p(12, T) and p(13, nil) and p(14, 0) and p(15,
  1) or p(16, 's') and p(17, 1) or p(18, 's') and p(19, 's') and p(20, nil) and p(21, T) and p(22, 1)
  and p(23, 0) and p(24, 0) and p(25, 0) and p(26, 1) or p(27, 's') and p(28, 's') and p(29, 1) or
  p(30, T) and p(31, 1) or p(32, T) and p(33, 0) and p(34, 0) and p(35, 0) and p(36, T) and p(37, T)
  and p(38, T) or p(39, T) or p(40, T) or p(41, 0) and p(42, 1) and p(43, T) and p(44, 1) and p(45, T)
  and p(46, nil) and p(47, 's') and p(48, 's') or p(49, 's') and p(50, 1) and p(51, T) and p(52, 0) or
  p(53, 0) and p(54, T) and p(55, 1) and p(56, 0) and p(57, 's') and p(58, 1) and p(59, T) and p(60,
  T) and p(61, 0) and p(62, T) and p(63, T) and p(64, 0) and p(65, T) and p(66, 0) and p(67, 1) and
  p(68, T) and p(69, nil) and p(70, 's') and p(71, 0) and p(72, 0) and p(73, 1) and p(74, 0) and p(75,
  false) and p(76, 0) and p(77, T) and p(78, T) and p(79, 1) and p(80, 1) and p(81, 1) and p(82, 0)
  and p(83, 1) and p(84, 's') and p(85, 's') or p(86, 1) and p(87, T) and p(88, 's') or p(89, 0) and
  p(90, 1) or p(91, T) and p(92, false) and p(93, 1) and p(94, 1) and p(95, 1) or p(96, 1) and p(97,
  1) or p(98, 0) and p(99, T) and p(100, 1) and p(101, 0) and p(102, F) and p(103, T) and p(104, 's')
  and p(105, 0) and p(106, 1) and p(107, 's') and p(108, T) and p(109, 0) and p(110, 0) and p(111, 1)
  and p(112, 1) and p(113, 1) and p(114, 's') or p(115, 1) and p(116, 0) and p(117, 1) and p(118, T)
  and p(119, 0) and p(120, 1) and p(121, 0) and p(122, 1) and p(123, 1) and p(124, 1) and p(125, 0)
  and p(126, 1) and p(127, 's') and p(128, T) or p(129, 's') or p(130, T) or p(131, 1) and p(132, 's')
  and p(133, 0) and p(134, 0) and p(135, 1) and p(136, T) and p(137, T) and p(138, 1) and p(139, T)
  and p(140, 1) and p(141, 's') or p(142, 's') and p(143, 1) and p(144, 0) and p(145, T) and p(146, T)
  and p(147, 1) and p(148, 's') and p(149, T) and p(150, 0) and p(151, 's') and p(152, 's') and p(153,
  T) and p(154, 's') and p(155, T) and p(156, 0) and p(157, 1) and p(158, 1) and p(159, 1) and p(160,
  0) and p(161, 1) and p(162, false) and p(163, 0) and p(164, 's') and p(165, 0) or p(166, T) and
  p(167, 's') and p(168, 's') and p(169, 's') and p(170, 1) and p(171, 1) and p(172, 1) and p(173, T)
  or p(174, 's') and p(175, 0) and p(176, 1) and p(177, T) and p(178, 1) and p(179, 's') and p(180, T)
  and p(181, T) and p(182, 0) and p(183, 1) and p(184, 1) and p(185, 0) and p(186, 's') and p(187, 1)
  and p(188, 's') or p(189, nil) or p(190, 1) and p(191, T) and p(192, 's') and p(193, 's') and p(194,
  0) and p(195, 's') and p(196, 0) or p(197, 1) and p(198, 1) and p(199, 1) and p(200, 0) and p(201,
  1) and p(202, 1) and p(203, 0) and p(204, T) and p(205, 1) and p(206, T) and p(207, T) and p(208, T)
  and p(209, 0) and p(210, 1) and p(211, 's') and p(212, 1) and p(213, T) and p(214, 1) and p(215, T)
  or p(216, 's') or p(217, 1) and p(218, 0) and p(219, 0) and p(220, T) and p(221, 's') and p(222, 1)
  and p(223, 0) and p(224, 's') and p(225, T) and p(226, 's') and p(227, 0) and p(228, T) and p(229,
  's') and p(230, 's') and p(231, 's') and p(232, T) or p(233, 's') and p(234, T) and p(235, 's') and
  p(236, 's') or p(237, 's') and p(238, 0) and p(239, T) and p(240, nil) and p(241, T) and p(242, 's')
  or p(243, 1) and p(244, T) and p(245, 1) and p(246, 0) and p(247, 1) and p(248, 0) and p(249, 0)
flush('v3 ' .. tostring(v3))
if p(0, 's') and p(1, 0) and p(2, T) and p(3, 1) and p(4, T) and p(5, T) and p(6, 's') and p(7, 0) and
  p(8, 1) and p(9, 1) and p(10, 's') and p(11, T) and p(12, T) and p(13, nil) and p(14, 0) and p(15,
  1) or p(16, 's') and p(17, 1) or p(18, 's') and p(19, 's') and p(20, nil) and p(21, T) and p(22, 1)
  and p(23, 0) and p(24, 0) and p(25, 0) and p(26, 1) or p(27, 's') and p(28, 's') and p(29, 1) or
  p(30, T) and p(31, 1) or p(32, T) and p(33, 0) and p(34, 0) and p(35, 0) and p(36, T) and p(37, T)
  and p(38, T) or p(39, T) or p(40, T) or p(41, 0) and p(42, 1) and p(43, T) and p(44, 1) and p(45, T)
  and p(46, nil) and p(47, 's') and p(48, 's') or p(49, 's') and p(50, 1) and p(51, T) and p(52, 0) or
  p(53, 0) and p(54, T) and p(55, 1) and p(56, 0) and p(57, 's') and p(58, 1) and p(59, T) and p(60,
  T) and p(61, 0) and p(62, T) and p(63, T) and p(64, 0) and p(65, T) and p(66, 0) and p(67, 1) and
  p(68, T) and p(69, nil) and p(70, 's') and p(71, 0) and p(72, 0) and p(73, 1) and p(74, 0) and p(75,
  false) and p(76, 0) and p(77, T) and p(78, T) and p(79, 1) and p(80, 1) and p(81, 1) and p(82, 0)
  and p(83, 1) and p(84, 's') and p(85, 's') or p(86, 1) and p(87, T) and p(88, 's') or p(89, 0) and
  p(90, 1) or p(91, T) and p(92, false) and p(93, 1) and p(94, 1) and p(95, 1) or p(96, 1) and p(97,
  1) or p(98, 0) and p(99, T) and p(100, 1) and p(101, 0) and p(102, F) and p(103, T) and p(104, 's')
  and p(105, 0) and p(106, 1) and p(107, 's') and p(108, T) and p(109, 0) and p(110, 0) and p(111, 1)
  and p(112, 1) and p(113, 1) and p(114, 's') or p(115, 1) and p(116, 0) and p(117, 1) and p(118, T)
  and p(119, 0) and p(120, 1) and p(121, 0) and p(122, 1) and p(123, 1) and p(124, 1) and p(125, 0)
  and p(126, 1) and p(127, 's') and p(128, T) or p(129, 's') or p(130, T) or p(131, 1) and p(132, 's')
  and p(133, 0) and p(134, 0) and p(135, 1) and p(136, T) and p(137, T) and p(138, 1) and p(139, T)
  and p(140, 1) and p(141, 's') or p(142, 's') and p(143, 1) and p(144, 0) and p(145, T) and p(146, T)
  and p(147, 1) and p(148, 's') and p(149, T) and p(150, 0) and p(151, 's') and p(152, 's') and p(153,
  T) and p(154, 's') and p(155, T) and p(156, 0) and p(157, 1) and p(158, 1) and p(159, 1) and p(160,
  0) and p(161, 1) and p(162, false) and p(163, 0) and p(164, 's') and p(165, 0) or p(166, T) and
  p(167, 's') and p(168, 's') and p(169, 's') and p(170, 1) and p(171, 1) and p(172, 1) and p(173, T)
  or p(174, 's') and p(175, 0) and p(176, 1) and p(177, T) and p(178, 1) and p(179, 's') and p(180, T)
  and p(181, T) and p(182, 0) and p(183, 1) and p(184, 1) and p(185, 0) and p(186, 's') and p(187, 1)
  and p(188, 's') or p(189, nil) or p(190, 1) and p(191, T) and p(192, 's') and p(193, 's') and p(194,
  0) and p(195, 's') and p(196, 0) or p(197, 1) and p(198, 1) and p(199, 1) and p(200, 0) and p(201,
  1) and p(202, 1) and p(203, 0) and p(204, T) and p(205, 1) and p(206, T) and p(207, T) and p(208, T)
  and p(209, 0) and p(210, 1) and p(211, 's') and p(212, 1) and p(213, T) and p(214, 1) and p(215, T)
  or p(216, 's') or p(217, 1) and p(218, 0) and p(219, 0) and p(220, T) and p(221, 's') and p(222, 1)
  and p(223, 0) and p(224, 's') and p(225, T) and p(226, 's') and p(227, 0) and p(228, T) and p(229,
  's') and p(230, 's') and p(231, 's') and p(232, T) or p(233, 's') and p(234, T) and p(235, 's') and
  p(236, 's') or p(237, 's') and p(238, 0) and p(239, T) and p(240, nil) and p(241, T) and p(242, 's')
  or p(243, 1) and p(244, T) and p(245, 1) and p(246, 0) and p(247, 1) and p(248, 0) and p(249, 0) then flush('if3 then') else flush('if3 else') end
if not (p(0, 's') and p(1, 0) and p(2, T) and p(3, 1) and p(4, T) and p(5, T) and p(6, 's') and p(7, 0) and
  p(8, 1) and p(9, 1) and p(10, 's') and p(11, T) and p(12, T) and p(13, nil) and p(14, 0) and p(15,
  1) or p(16, 's') and p(17, 1) or p(18, 's') and p(19, 's') and p(20, nil) and p(21, T) and p(22, 1)
  and p(23, 0) and p(24, 0) and p(25, 0) and p(26, 1) or p(27, 's') and p(28, 's') and p(29, 1) or
  p(30, T) and p(31, 1) or p(32, T) and p(33, 0) and p(34, 0) and p(35, 0) and p(36, T) and p(37, T)
  and p(38, T) or p(39, T) or p(40, T) or p(41, 0) and p(42, 1) and p(43, T) and p(44, 1) and p(45, T)
  and p(46, nil) and p(47, 's') and p(48, 's') or p(49, 's') and p(50, 1) and p(51, T) and p(52, 0) or
  p(53, 0) and p(54, T) and p(55, 1) and p(56, 0) and p(57, 's') and p(58, 1) and p(59, T) and p(60,
  T) and p(61, 0) and p(62, T) and p(63, T) and p(64, 0) and p(65, T) and p(66, 0) and p(67, 1) and
  p(68, T) and p(69, nil) and p(70, 's') and p(71, 0) and p(72, 0) and p(73, 1) and p(74, 0) and p(75,
  false) and p(76, 0) and p(77, T) and p(78, T) and p(79, 1) and p(80, 1) and p(81, 1) and p(82, 0)
  and p(83, 1) and p(84, 's') and p(85, 's') or p(86, 1) and p(87, T) and p(88, 's') or p(89, 0) and
  p(90, 1) or p(91, T) and p(92, false) and p(93, 1) and p(94, 1) and p(95, 1) or p(96, 1) and p(97,
  1) or p(98, 0) and p(99, T) and p(100, 1) and p(101, 0) and p(102, F) and p(103, T) and p(104, 's')
  and p(105, 0) and p(106, 1) and p(107, 's') and p(108, T) and p(109, 0) and p(110, 0) and p(111, 1)
  and p(112, 1) and p(113, 1) and p(114, 's') or p(115, 1) and p(116, 0) and p(117, 1) and p(118, T)
  and p(119, 0) and p(120, 1) and p(121, 0) and p(122, 1) and p(123, 1) and p(124, 1) and p(125, 0)
  and p(126, 1) and p(127, 's') and p(128, T) or p(129, 's') or p(130, T) or p(131, 1) and p(132, 's')
  and p(133, 0) and p(134, 0) and p(135, 1) and p(136, T) and p(137, T) and p(138, 1) and p(139, T)
  and p(140, 1) and p(141, 's') or p(142, 's') and p(143, 1) and p(144, 0) and p(145, T) and p(146, T)
  and p(147, 1) and p(148, 's') and p(149, T) and p(150, 0) and p(151, 's') and p(152, 's') and p(153,
  T) and p(154, 's') and p(155, T) and p(156, 0) and p(157, 1) and p(158, 1) and p(159, 1) and p(160,
  0) and p(161, 1) and p(162, false) and p(163, 0) and p(164, 's') and p(165, 0) or p(166, T) and
  p(167, 's') and p(168, 's') and p(169, 's') and p(170, 1) and p(171, 1) and p(172, 1) and p(173, T)
  or p(174, 's') and p(175, 0) and p(176, 1) and p(177, T) and p(178, 1) and p(179, 's') and p(180, T)
  and p(181, T) and p(182, 0) and p(183, 1) and p(184, 1) and p(185, 0) and p(186, 's') and p(187, 1)
  and p(188, 's') or p(189, nil) or p(190, 1) and p(191, T) and p(192, 's') and p(193, 's') and p(194,
  0) and p(195, 's') and p(196, 0) or p(197, 1) and p(198, 1) and p(199, 1) and p(200, 0) and p(201,
  1) and p(202, 1) and p(203, 0) and p(204, T) and p(205, 1) and p(206, T) and p(207, T) and p(208, T)
  and p(209, 0) and p(210, 1) and p(211, 's') and p(212, 1) and p(213, T) and p(214, 1) and p(215, T)
  or p(216, 's') or p(217, 1) and p(218, 0) and p(219, 0) and p(220, T) and p(221, 's') and p(222, 1)
  and p(223, 0) and p(224, 's') and p(225, T) and p(226, 's') and p(227, 0) and p(228, T) and p(229,
  's') and p(230, 's') and p(231, 's') and p(232, T) or p(233, 's') and p(234, T) and p(235, 's') and
  p(236, 's') or p(237, 's') and p(238, 0) and p(239, T) and p(240, nil) and p(241, T) and p(242, 's')
  or p(243, 1) and p(244, T) and p(245, 1) and p(246, 0) and p(247, 1) and p(248, 0) and p(249, 0)) then flush('not3 then') else flush('not3 else') end
local v4 = p(0, nil) and p(1, F) or p(2, nil) or p(3, false) or p(4, nil) or p(5, F) or p(6, nil) or p(7, F) or
  p(8, F) and p(9, F) or p(10, false) or p(11, false) or p(12, F) or p(13, false) or p(14, 's') or
  p(15, F) and p(16, false) and p(17, false) or p(18, 's') or p(19, false) or p(20, false) or p(21,
  nil) and p(22, F) or p(23, false) or p(24, F) or p(25, nil) or p(26, nil) or p(27, false) or p(28,
  false) or p(29, false) or p(30, false) and p(31, false) or p(32, false) or p(33, nil) or p(34, nil)
  or p(35, nil) or p(36, false) or p(37, F) or p(38, nil) or p(39, false) or p(40, nil) or p(41, F) or
  p(42, false) or p(43, nil) or p(44, false) or p(45, false) or p(46, F) or p(47, nil) or p(48, F) or
  p(49, false) or p(50, nil) or p(51, nil) or p(52, nil) or p(53, false) or p(54, 's') or p(55, false)
  or p(56, nil) or p(57, nil) or p(58, F) or p(59, F) or p(60, nil) or p(61, F) or p(62, nil) or p(63,
  false) or p(64, F) or p(65, false) or p(66, nil) or p(67, nil) or p(68, nil) or p(69, F) and p(70,
  F) or p(71, false) or p(72, F) or p(73, 's') or p(74, false) and p(75, nil) or p(76, false) or p(77,
  F) and p(78, nil) or p(79, false) or p(80, false) or p(81, nil) or p(82, nil) or p(83, false) or
  p(84, nil) or p(85, nil) and p(86, false) or p(87, 1) or p(88, false) or p(89, false) and p(90,
  false) or p(91, 0) or p(92, nil) or p(93, false) or p(94, nil) or p(95, false) or p(96, false) and
  p(97, nil) or p(98, nil) or p(99, F) or p(100, false) or p(101, F) or p(102, F) or p(103, F) or
  p(104, F) or p(105, nil) or p(106, false) or p(107, F) or p(108, 1) or p(109, F) or p(110, false)
  and p(111, F) or p(112, nil) or p(113, false) or p(114, nil) or p(115, F) or p(116, 0) or p(117,
  false) or p(118, nil) or p(119, false) or p(120, F) or p(121, nil) or p(122, false) or p(123, F) or
  p(124, nil) or p(125, F) and p(126, false) or p(127, false) or p(128, F) or p(129, nil) or p(130, F)
  or p(131, nil) or p(132, false) or p(133, F) and p(134, F) or p(135, F) or p(136, nil) or p(137,
  nil) or p(138, nil) or p(139, false) or p(140, false) or p(141, T) and p(142, nil) or p(143, false)
  or p(144, F) or p(145, nil) or p(146, F) or p(147, nil) or p(148, false) and p(149, F) or p(150,
  false) or p(151, F) or p(152, F) or p(153, false) or p(154, F) or p(155, false) or p(156, false) or
  p(157, nil) or p(158, nil) or p(159, false) or p(160, nil) or p(161, F) or p(162, F) or p(163, nil)
  or p(164, F) or p(165, false) or p(166, nil) and p(167, false) or p(168, nil) and p(169, false) or
  p(170, nil) or p(171, F) or p(172, false) or p(173, nil) or p(174, nil) or p(175, nil) or p(176,
  false) or p(177, T) or p(178, nil) and p(179, nil) or p(180, false) and p(181, nil) or p(182, false)
  or p(183, nil) or p(184, F) or p(185, nil) or p(186, false) or p(187, F) or p(188, false) or p(189,
  F) or p(190, false) or p(191, F) or p(192, false) or p(193, F) or p(194, F) or p(195, false) or
  p(196, nil) or p(197, false) or p(198, false) or p(199, F) or p(200, false) or p(201, nil) or p(202,
  nil) or p(203, false) or p(204, nil) or p(205, F) or p(206, nil) or p(207, nil) or p(208, F) or
  p(209, F) or p(210, nil) or p(211, F) or p(212, false) or p(213, F) or p(214, F) or p(215, false) or
  p(216, F) or p(217, F) or p(218, F) or p(219, nil) or p(220, false) or p(221, F) or p(222, F) or
  p(223, F) or p(224, false) or p(225, false) or p(226, false) or p(227, false) or p(228, nil) or
  p(229, T) or p(230, false) or p(231, 1) or p(232, F) or p(233, nil) or p(234, false) or p(235, nil)
  or p(236, nil) or p(237, false) or p(238, F) or p(239, nil) or p(240, F) or p(241, false) or p(242,
  nil) or p(243, false) or p(244, false) or p(245, nil) and p(246, false) or p(247, false) or p(248,
  nil) or p(249, false) or p(250, nil) or p(251, F) or p(252, F) or p(253, F) or p(254, nil) or p(255,
  false) or p(256, nil) and p(257, nil) or p(258, false) or p(259, nil) or p(260, false) or p(261, F)
  or p(262, F) or p(263, false) or p(264, F) or p(265, F) or p(266, false) or p(267, false) or p(268,
  false) or p(269, false) or p(270, nil) or p(271, false) or p(272, F) or p(273, nil) or p(274, 0) or
  p(275, nil) or p(276, 's') or p(277, false) or p(278, false) or p(279, false) or p(280, false) or
  p(281, nil) or p(282, F) or p(283, false) or p(284, nil) or p(285, nil) or p(286, nil) or p(287, F)
  or p(288, nil) or p(289, nil) or p(290, F) and p(291, false) or p(292, F) or p(293, nil) or p(294,
  F) or p(295, F) or p(296, F) or p(297, nil) or p(298, nil) and p(299, F) or p(300, F) and p(301,
  false) or p(302, false) or p(303, false) or p(304, nil) or p(305, false) or p(306, F) or p(307, F)
  or p(308, nil) or p(309, false) or p(310, nil) or p(311, false) or p(312, 's') or p(313, false) and
  p(314, F) and p(315, false) or p(316, false) or p(317, false) or p(318, false) or p(319, false) or
  p(320, nil) or p(321, false) or p(322, false) or p(323, F) or p(324, nil) or p(325, F) and p(326,
  nil) or p(327, false) or p(328, false) or p(329, F) or p(330, F) or p(331, nil) or p(332, false) or
  p(333, F) or p(334, false) or p(335, nil) or p(336, nil) or p(337, F) or p(338, false) or p(339, F)
  or p(340, nil) or p(341, F) or p(342, nil) or p(343, F) or p(344, false) and p(345, false) or p(346,
  F) or p(347, F) and p(348, F) or p(349, nil) or p(350, F) or p(351, T) and p(352, nil) or p(353,
  nil) or p(354, false) or p(355, F) or p(356, nil) or p(357, nil) or p(358, false) or p(359, nil) or
  p(360, false) or p(361, F) or p(362, nil) or p(363, false) or p(364, 's') or p(365, nil) or p(366,
  nil) or p(367, nil) or p(368, nil) or p(369, false) or p(370, nil) or p(371, F) or p(372, false) or
  p(373, false) or p(374, 1) and p(375, F) and p(376, F) or p(377, F) or p(378, nil) or p(379, nil) or
  p(380, 0) or p(381, nil) or p(382, nil) or p(383, F) or p(384, F) or p(385, nil) or p(386, F) and
  p(387, false) or p(388, F) or p(389, F) or p(390, F) or p(391, false) or p(392, F) or p(393, F) or
  p(394, nil) or p(395, false) or p(396, F) or p(397, 1) or p(398, F) or p(399, F) or p(400, F) or
  p(401, F) or p(402, false) or p(403, false) or p(404, false) or p(405, false) or p(406, F) or p(407,
  false) or p(408, nil) or p(409, nil) or p(410, F) or p(411, false) or p(412, F) or p(413, false) or
  p(414, F) or p(415, nil) or p(416, F) or p(417, false) or p(418, false) or p(419, F) or p(420, F) or
  p(421, F) or p(422, F) or p(423, F) and p(424, F) or p(425, F) or p(426, false) or p(427, F) or
  p(428, nil) or p(429, 's') or p(430, false) or p(431, false) or p(432, false) and p(433, F) or
  p(434, false) and p(435, nil) or p(436, false) or p(437, F) and p(438, F) or p(439, nil) or p(440,
  nil) or p(441, F) or p(442, F) and p(443, F) or p(444, false) or p(445, nil) or p(446, F) or p(447,
  F) or p(448, false) or p(449, nil) or p(450, nil) or p(451, F) or p(452, F) or p(453, nil) or p(454,
  false) or p(455, 1) or p(456, F) or p(457, false) and p(458, F) and p(459, F) or p(460, F) or p(461,
  nil) and p(462, F) or p(463, F) or p(464, F) or p(465, F) or p(466, F) or p(467, false) or p(468,
  false) or p(469, F) or p(470, false) and p(471, F) or p(472, F) or p(473, F) and p(474, nil) or
  p(475, false) or p(476, false) or p(477, F) or p(478, false) or p(479, nil) or p(480, nil) or p(481,
  F) or p(482, nil) or p(483, false) or p(484, F) or p(485, false) or p(486, nil) or p(487, false) or
  p(488, nil) or p(489, false) or p(490, nil) or p(491, F) or p(492, F) or p(493, nil) or p(494, 0) or
  p(495, nil) or p(496, F) and p(497, nil) or p(498, F) and p(499, F) or p(500, false) or p(501, F) or
  p(502, F) or p(503, false) or p(504, false) or p(505, nil) or p(506, nil) or p(507, false) or p(508,
  0) or p(509, nil) and p(510, 's') or p(511, nil) or p(512, nil) or p(513, false) or p(514, false) or
  p(515, F) or p(516, nil) or p(517, nil) or p(518, F) or p(519, false) or p(520, F) and p(521, F) or
  p(522, false) and p(523, nil) or p(524, false) or p(525, nil) and p(526, nil) or p(527, nil) or
  p(528, nil) and p(529, false) or p(530, 's') or p(531, F) and p(532, false) or p(533, F) or p(534,
  nil) or p(535, nil) or p(536, nil) or p(537, F) or p(538, false) or p(539, false) or p(540, false)
  or p(541, nil) or p(542, false) and p(543, F) or p(544, false) or p(545, false) or p(546, nil) or
  p(547, nil) or p(548, false) or p(549, F) or p(550, F) or p(551, 1) or p(552, F) or p(553, F) or
  p(554, false) or p(555, F) or p(556, F) or p(557, nil) or p(558, false) or p(559, nil) or p(560,
  false) or p(561, false) or p(562, false) or p(563, F) and p(564, false) or p(565, nil) or p(566, F)
  or p(567, nil) or p(568, nil) or p(569, nil) and p(570, F) or p(571, 1) or p(572, F) or p(573, F) or
  p(574, false) or p(575, nil) or p(576, nil) or p(577, nil) or p(578, F) or p(579, F) or p(580, 1) or
  p(581, false) or p(582, F) or p(583, nil) or p(584, false) and p(585, F) and p(586, F) or p(587, F)
  or p(588, F) or p(589, false) or p(590, false) or p(591, false) or p(592, T) or p(593, nil) or
  p(594, F) or p(595, false) or p(596, false) or p(597, nil) and p(598, F) or p(599, F)
flush('v4 ' .. tostring(v4))
if p(0, nil) and p(1, F) or p(2, nil) or p(3, false) or p(4, nil) or p(5, F) or p(6, nil) or p(7, F) or
  p(8, F) and p(9, F) or p(10, false) or p(11, false) or p(12, F) or p(13, false) or p(14, 's') or
  p(15, F) and p(16, false) and p(17, false) or p(18, 's') or p(19, false) or p(20, false) or p(21,
  nil) and p(22, F) or p(23, false) or p(24, F) or p(25, nil) or p(26, nil) or p(27, false) or p(28,
  false) or p(29, false) or p(30, false) and p(31, false) or p(32, false) or p(33, nil) or p(34, nil)
  or p(35, nil) or p(36, false) or p(37, F) or p(38, nil) or p(39, false) or p(40, nil) or p(41, F) or
  p(42, false) or p(43, nil) or p(44, false) or p(45, false) or p(46, F) or p(47, nil) or p(48, F) or
  p(49, false) or p(50, nil) or p(51, nil) or p(52, nil) or p(53, false) or p(54, 's') or p(55, false)
  or p(56, nil) or p(57, nil) or p(58, F) or p(59, F) or p(60, nil) or p(61, F) or p(62, nil) or p(63,
  false) or p(64, F) or p(65, false) or p(66, nil) or p(67, nil) or p(68, nil) or p(69, F) and p(70,
  F) or p(71, false) or p(72, F) or p(73, 's') or p(74, false) and p(75, nil) or p(76, false) or p(77,
  F) and p(78, nil) or p(79, false) or p(80, false) or p(81, nil) or p(82, nil) or p(83, false) or
  p(84, nil) or p(85, nil) and p(86, false) or p(87, 1) or p(88, false) or p(89, false) and p(90,
  false) or p(91, 0) or p(92, nil) or p(93, false) or p(94, nil) or p(95, false) or p(96, false) and
  p(97, nil) or p(98, nil) or p(99, F) or p(100, false) or p(101, F) or p(102, F) or p(103, F) or
  p(104, F) or p(105, nil) or p(106, false) or p(107, F) or p(108, 1) or p(109, F) or p(110, false)
  and p(111, F) or p(112, nil) or p(113, false) or p(114, nil) or p(115, F) or p(116, 0) or p(117,
  false) or p(118, nil) or p(119, false) or p(120, F) or p(121, nil) or p(122, false) or p(123, F) or
  p(124, nil) or p(125, F) and p(126, false) or p(127, false) or p(128, F) or p(129, nil) or p(130, F)
  or p(131, nil) or p(132, false) or p(133, F) and p(134, F) or p(135, F) or p(136, nil) or p(137,
  nil) or p(138, nil) or p(139, false) or p(140, false) or p(141, T) and p(142, nil) or p(143, false)
  or p(144, F) or p(145, nil) or p(146, F) or p(147, nil) or p(148, false) and p(149, F) or p(150,
  false) or p(151, F) or p(152, F) or p(153, false) or p(154, F) or p(155, false) or p(156, false) or
  p(157, nil) or p(158, nil) or p(159, false) or p(160, nil) or p(161, F) or p(162, F) or p(163, nil)
  or p(164, F) or p(165, false) or p(166, nil) and p(167, false) or p(168, nil) and p(169, false) or
  p(170, nil) or p(171, F) or p(172, false) or p(173, nil) or p(174, nil) or p(175, nil) or p(176,
  false) or p(177, T) or p(178, nil) and p(179, nil) or p(180, false) and p(181, nil) or p(182, false)
  or p(183, nil) or p(184, F) or p(185, nil) or p(186, false) or p(187, F) or p(188, false) or p(189,
  F) or p(190, false) or p(191, F) or p(192, false) or p(193, F) or p(194, F) or p(195, false) or
  p(196, nil) or p(197, false) or p(198, false) or p(199, F) or p(200, false) or p(201, nil) or p(202,
  nil) or p(203, false) or p(204, nil) or p(205, F) or p(206, nil) or p(207, nil) or p(208, F) or
  p(209, F) or p(210, nil) or p(211, F) or p(212, false) or p(213, F) or p(214, F) or p(215, false) or
  p(216, F) or p(217, F) or p(218, F) or p(219, nil) or p(220, false) or p(221, F) or p(222, F) or
  p(223, F) or p(224, false) or p(225, false) or p(226, false) or p(227, false) or p(228, nil) or
  p(229, T) or p(230, false) or p(231, 1) or p(232, F) or p(233, nil) or p(234, false) or p(235, nil)
  or p(236, nil) or p(237, false) or p(238, F) or p(239, nil) or p(240, F) or p(241, false) or p(242,
  nil) or p(243, false) or p(244, false) or p(245, nil) and p(246, false) or p(247, false) or p(248,
  nil) or p(249, false) or p(250, nil) or p(251, F) or p(252, F) or p(253, F) or p(254, nil) or p(255,
  false) or p(256, nil) and p(257, nil) or p(258, false) or p(259, nil) or p(260, false) or p(261, F)
  or p(262, F) or p(263, false) or p(264, F) or p(265, F) or p(266, false) or p(267, false) or p(268,
  false) or p(269, false) or p(270, nil) or p(271, false) or p(272, F) or p(273, nil) or p(274, 0) or
  p(275, nil) or p(276, 's') or p(277, false) or p(278, false) or p(279, false) or p(280, false) or
  p(281, nil) or p(282, F) or p(283, false) or p(284, nil) or p(285, nil) or p(286, nil) or p(287, F)
  or p(288, nil) or p(289, nil) or p(290, F) and p(291, false) or p(292, F) or p(293, nil) or p(294,
  F) or p(295, F) or p(296, F) or p(297, nil) or p(298, nil) and p(299, F) or p(300, F) and p(301,
  false) or p(302, false) or p(303, false) or p(304, nil) or p(305, false) or p(306, F) or p(307, F)
  or p(308, nil) or p(309, false) or p(310, nil) or p(311, false) or p(312, 's') or p(313, false) and
  p(314, F) and p(315, false) or p(316, false) or p(317, false) or p(318, false) or p(319, false) or
  p(320, nil) or p(321, false) or p(322, false) or p(323, F) or p(324, nil) or p(325, F) and p(326,
  nil) or p(327, false) or p(328, false) or p(329, F) or p(330, F) or p(331, nil) or p(332, false) or
  p(333, F) or p(334, false) or p(335, nil) or p(336, nil) or p(337, F) or p(338, false) or p(339, F)
  or p(340, nil) or p(341, F) or p(342, nil) or p(343, F) or p(344, false) and p(345, false) or p(346,
  F) or p(347, F) and p(348, F) or p(349, nil) or p(350, F) or p(351, T) and p(352, nil) or p(353,
  nil) or p(354, false) or p(355, F) or p(356, nil) or p(357, nil) or p(358, false) or p(359, nil) or
  p(360, false) or p(361, F) or p(362, nil) or p(363, false) or p(364, 's') or p(365, nil) or p(366,
  nil) or p(367, nil) or p(368, nil) or p(369, false) or p(370, nil) or p(371, F) or p(372, false) or
  p(373, false) or p(374, 1) and p(375, F) and p(376, F) or p(377, F) or p(378, nil) or p(379, nil) or
  p(380, 0) or p(381, nil) or p(382, nil) or p(383, F) or p(384, F) or p(385, nil) or p(386, F) and
  p(387, false) or p(388, F) or p(389, F) or p(390, F) or p(391, false) or p(392, F) or p(393, F) or
  p(394, nil) or p(395, false) or p(396, F) or p(397, 1) or p(398, F) or p(399, F) or p(400, F) or
  p(401, F) or p(402, false) or p(403, false) or p(404, false) or p(405, false) or p(406, F) or p(407,
  false) or p(408, nil) or p(409, nil) or p(410, F) or p(411, false) or p(412, F) or p(413, false) or
  p(414, F) or p(415, nil) or p(416, F) or p(417, false) or p(418, false) or p(419, F) or p(420, F) or
  p(421, F) or p(422, F) or p(423, F) and p(424, F) or p(425, F) or p(426, false) or p(427, F) or
  p(428, nil) or p(429, 's') or p(430, false) or p(431, false) or p(432, false) and p(433, F) or
  p(434, false) and p(435, nil) or p(436, false) or p(437, F) and p(438, F) or p(439, nil) or p(440,
  nil) or p(441, F) or p(442, F) and p(443, F) or p(444, false) or p(445, nil) or p(446, F) or p(447,
  F) or p(448, false) or p(449, nil) or p(450, nil) or p(451, F) or p(452, F) or p(453, nil) or p(454,
  false) or p(455, 1) or p(456, F) or p(457, false) and p(458, F) and p(459, F) or p(460, F) or p(461,
  nil) and p(462, F) or p(463, F) or p(464, F) or p(465, F) or p(466, F) or p(467, false) or p(468,
  false) or p(469, F) or p(470, false) and p(471, F) or p(472, F) or p(473, F) and p(474, nil) or
  p(475, false) or p(476, false) or p(477, F) or p(478, false) or p(479, nil) or p(480, nil) or p(481,
  F) or p(482, nil) or p(483, false) or p(484, F) or p(485, false) or p(486, nil) or p(487, false) or
  p(488, nil) or p(489, false) or p(490, nil) or p(491, F) or p(492, F) or p(493, nil) or p(494, 0) or
  p(495, nil) or p(496, F) and p(497, nil) or p(498, F) and p(499, F) or p(500, false) or p(501, F) or
  p(502, F) or p(503, false) or p(504, false) or p(505, nil) or p(506, nil) or p(507, false) or p(508,
  0) or p(509, nil) and p(510, 's') or p(511, nil) or p(512, nil) or p(513, false) or p(514, false) or
  p(515, F) or p(516, nil) or p(517, nil) or p(518, F) or p(519, false) or p(520, F) and p(521, F) or
  p(522, false) and p(523, nil) or p(524, false) or p(525, nil) and p(526, nil) or p(527, nil) or
  p(528, nil) and p(529, false) or p(530, 's') or p(531, F) and p(532, false) or p(533, F) or p(534,
  nil) or p(535, nil) or p(536, nil) or p(537, F) or p(538, false) or p(539, false) or p(540, false)
  or p(541, nil) or p(542, false) and p(543, F) or p(544, false) or p(545, false) or p(546, nil) or
  p(547, nil) or p(548, false) or p(549, F) or p(550, F) or p(551, 1) or p(552, F) or p(553, F) or
  p(554, false) or p(555, F) or p(556, F) or p(557, nil) or p(558, false) or p(559, nil) or p(560,
  false) or p(561, false) or p(562, false) or p(563, F) and p(564, false) or p(565, nil) or p(566, F)
  or p(567, nil) or p(568, nil) or p(569, nil) and p(570, F) or p(571, 1) or p(572, F) or p(573, F) or
  p(574, false) or p(575, nil) or p(576, nil) or p(577, nil) or p(578, F) or p(579, F) or p(580, 1) or
  p(581, false) or p(582, F) or p(583, nil) or p(584, false) and p(585, F) and p(586, F) or p(587, F)
  or p(588, F) or p(589, false) or p(590, false) or p(591, false) or p(592, T) or p(593, nil) or
  p(594, F) or p(595, false) or p(596, false) or p(597, nil) and p(598, F) or p(599, F) then flush('if4 then') else flush('if4 else') end
if not (p(0, nil) and p(1, F) or p(2, nil) or p(3, false) or p(4, nil) or p(5, F) or p(6, nil) or p(7, F) or
  p(8, F) and p(9, F) or p(10, false) or p(11, false) or p(12, F) or p(13, false) or p(14, 's') or
  p(15, F) and p(16, false) and p(17, false) or p(18, 's') or p(19, false) or p(20, false) or p(21,
  nil) and p(22, F) or p(23, false) or p(24, F) or p(25, nil) or p(26, nil) or p(27, false) or p(28,
  false) or p(29, false) or p(30, false) and p(31, false) or p(32, false) or p(33, nil) or p(34, nil)
  or p(35, nil) or p(36, false) or p(37, F) or p(38, nil) or p(39, false) or p(40, nil) or p(41, F) or
  p(42, false) or p(43, nil) or p(44, false) or p(45, false) or p(46, F) or p(47, nil) or p(48, F) or
  p(49, false) or p(50, nil) or p(51, nil) or p(52, nil) or p(53, false) or p(54, 's') or p(55, false)
  or p(56, nil) or p(57, nil) or p(58, F) or p(59, F) or p(60, nil) or p(61, F) or p(62, nil) or p(63,
  false) or p(64, F) or p(65, false) or p(66, nil) or p(67, nil) or p(68, nil) or p(69, F) and p(70,
  F) or p(71, false) or p(72, F) or p(73, 's') or p(74, false) and p(75, nil) or p(76, false) or p(77,
  F) and p(78, nil) or p(79, false) or p(80, false) or p(81, nil) or p(82, nil) or p(83, false) or
  p(84, nil) or p(85, nil) and p(86, false) or p(87, 1) or p(88, false) or p(89, false) and p(90,
  false) or p(91, 0) or p(92, nil) or p(93, false) or p(94, nil) or p(95, false) or p(96, false) and
  p(97, nil) or p(98, nil) or p(99, F) or p(100, false) or p(101, F) or p(102, F) or p(103, F) or
  p(104, F) or p(105, nil) or p(106, false) or p(107, F) or p(108, 1) or p(109, F) or p(110, false)
  and p(111, F) or p(112, nil) or p(113, false) or p(114, nil) or p(115, F) or p(116, 0) or p(117,
  false) or p(118, nil) or p(119, false) or p(120, F) or p(121, nil) or p(122, false) or p(123, F) or
  p(124, nil) or p(125, F) and p(126, false) or p(127, false) or p(128, F) or p(129, nil) or p(130, F)
  or p(131, nil) or p(132, false) or p(133, F) and p(134, F) or p(135, F) or p(136, nil) or p(137,
  nil) or p(138, nil) or p(139, false) or p(140, false) or p(141, T) and p(142, nil) or p(143, false)
  or p(144, F) or p(145, nil) or p(146, F) or p(147, nil) or p(148, false) and p(149, F) or p(150,
  false) or p(151, F) or p(152, F) or p(153, false) or p(154, F) or p(155, false) or p(156, false) or
  p(157, nil) or p(158, nil) or p(159, false) or p(160, nil) or p(161, F) or p(162, F) or p(163, nil)
  or p(164, F) or p(165, false) or p(166, nil) and p(167, false) or p(168, nil) and p(169, false) or
  p(170, nil) or p(171, F) or p(172, false) or p(173, nil) or p(174, nil) or p(175, nil) or p(176,
  false) or p(177, T) or p(178, nil) and p(179, nil) or p(180, false) and p(181, nil) or p(182, false)
  or p(183, nil) or p(184, F) or p(185, nil) or p(186, false) or p(187, F) or p(188, false) or p(189,
  F) or p(190, false) or p(191, F) or p(192, false) or p(193, F) or p(194, F) or p(195, false) or
  p(196, nil) or p(197, false) or p(198, false) or p(199, F) or p(200, false) or p(201, nil) or p(202,
  nil) or p(203, false) or p(204, nil) or p(205, F) or p(206, nil) or p(207, nil) or p(208, F) or
  p(209, F) or p(210, nil) or p(211, F) or p(212, false) or p(213, F) or p(214, F) or p(215, false) or
  p(216, F) or p(217, F) or p(218, F) or p(219, nil) or p(220, false) or p(221, F) or p(222, F) or
  p(223, F) or p(224, false) or p(225, false) or p(226, false) or p(227, false) or p(228, nil) or
  p(229, T) or p(230, false) or p(231, 1) or p(232, F) or p(233, nil) or p(234, false) or p(235, nil)
  or p(236, nil) or p(237, false) or p(238, F) or p(239, nil) or p(240, F) or p(241, false) or p(242,
  nil) or p(243, false) or p(244, false) or p(245, nil) and p(246, false) or p(247, false) or p(248,
  nil) or p(249, false) or p(250, nil) or p(251, F) or p(252, F) or p(253, F) or p(254, nil) or p(255,
  false) or p(256, nil) and p(257, nil) or p(258, false) or p(259, nil) or p(260, false) or p(261, F)
  or p(262, F) or p(263, false) or p(264, F) or p(265, F) or p(266, false) or p(267, false) or p(268,
  false) or p(269, false) or p(270, nil) or p(271, false) or p(272, F) or p(273, nil) or p(274, 0) or
  p(275, nil) or p(276, 's') or p(277, false) or p(278, false) or p(279, false) or p(280, false) or
  p(281, nil) or p(282, F) or p(283, false) or p(284, nil) or p(285, nil) or p(286, nil) or p(287, F)
  or p(288, nil) or p(289, nil) or p(290, F) and p(291, false) or p(292, F) or p(293, nil) or p(294,
  F) or p(295, F) or p(296, F) or p(297, nil) or p(298, nil) and p(299, F) or p(300, F) and p(301,
  false) or p(302, false) or p(303, false) or p(304, nil) or p(305, false) or p(306, F) or p(307, F)
  or p(308, nil) or p(309, false) or p(310, nil) or p(311, false) or p(312, 's') or p(313, false) and
  p(314, F) and p(315, false) or p(316, false) or p(317, false) or p(318, false) or p(319, false) or
  p(320, nil) or p(321, false) or p(322, false) or p(323, F) or p(324, nil) or p(325, F) and p(326,
  nil) or p(327, false) or p(328, false) or p(329, F) or p(330, F) or p(331, nil) or p(332, false) or
  p(333, F) or p(334, false) or p(335, nil) or p(336, nil) or p(337, F) or p(338, false) or p(339, F)
  or p(340, nil) or p(341, F) or p(342, nil) or p(343, F) or p(344, false) and p(345, false) or p(346,
  F) or p(347, F) and p(348, F) or p(349, nil) or p(350, F) or p(351, T) and p(352, nil) or p(353,
  nil) or p(354, false) or p(355, F) or p(356, nil) or p(357, nil) or p(358, false) or p(359, nil) or
  p(360, false) or p(361, F) or p(362, nil) or p(363, false) or p(364, 's') or p(365, nil) or p(366,
  nil) or p(367, nil) or p(368, nil) or p(369, false) or p(370, nil) or p(371, F) or p(372, false) or
  p(373, false) or p(374, 1) and p(375, F) and p(376, F) or p(377, F) or p(378, nil) or p(379, nil) or
  p(380, 0) or p(381, nil) or p(382, nil) or p(383, F) or p(384, F) or p(385, nil) or p(386, F) and
  p(387, false) or p(388, F) or p(389, F) or p(390, F) or p(391, false) or p(392, F) or p(393, F) or
  p(394, nil) or p(395, false) or p(396, F) or p(397, 1) or p(398, F) or p(399, F) or p(400, F) or
  p(401, F) or p(402, false) or p(403, false) or p(404, false) or p(405, false) or p(406, F) or p(407,
  false) or p(408, nil) or p(409, nil) or p(410, F) or p(411, false) or p(412, F) or p(413, false) or
  p(414, F) or p(415, nil) or p(416, F) or p(417, false) or p(418, false) or p(419, F) or p(420, F) or
  p(421, F) or p(422, F) or p(423, F) and p(424, F) or p(425, F) or p(426, false) or p(427, F) or
  p(428, nil) or p(429, 's') or p(430, false) or p(431, false) or p(432, false) and p(433, F) or
  p(434, false) and p(435, nil) or p(436, false) or p(437, F) and p(438, F) or p(439, nil) or p(440,
  nil) or p(441, F) or p(442, F) and p(443, F) or p(444, false) or p(445, nil) or p(446, F) or p(447,
  F) or p(448, false) or p(449, nil) or p(450, nil) or p(451, F) or p(452, F) or p(453, nil) or p(454,
  false) or p(455, 1) or p(456, F) or p(457, false) and p(458, F) and p(459, F) or p(460, F) or p(461,
  nil) and p(462, F) or p(463, F) or p(464, F) or p(465, F) or p(466, F) or p(467, false) or p(468,
  false) or p(469, F) or p(470, false) and p(471, F) or p(472, F) or p(473, F) and p(474, nil) or
  p(475, false) or p(476, false) or p(477, F) or p(478, false) or p(479, nil) or p(480, nil) or p(481,
  F) or p(482, nil) or p(483, false) or p(484, F) or p(485, false) or p(486, nil) or p(487, false) or
  p(488, nil) or p(489, false) or p(490, nil) or p(491, F) or p(492, F) or p(493, nil) or p(494, 0) or
  p(495, nil) or p(496, F) and p(497, nil) or p(498, F) and p(499, F) or p(500, false) or p(501, F) or
  p(502, F) or p(503, false) or p(504, false) or p(505, nil) or p(506, nil) or p(507, false) or p(508,
  0) or p(509, nil) and p(510, 's') or p(511, nil) or p(512, nil) or p(513, false) or p(514, false) or
  p(515, F) or p(516, nil) or p(517, nil) or p(518, F) or p(519, false) or p(520, F) and p(521, F) or
  p(522, false) and p(523, nil) or p(524, false) or p(525, nil) and p(526, nil) or p(527, nil) or
  p(528, nil) and p(529, false) or p(530, 's') or p(531, F) and p(532, false) or p(533, F) or p(534,
  nil) or p(535, nil) or p(536, nil) or p(537, F) or p(538, false) or p(539, false) or p(540, false)
  or p(541, nil) or p(542, false) and p(543, F) or p(544, false) or p(545, false) or p(546, nil) or
  p(547, nil) or p(548, false) or p(549, F) or p(550, F) or p(551, 1) or p(552, F) or p(553, F) or
  p(554, false) or p(555, F) or p(556, F) or p(557, nil) or p(558, false) or p(559, nil) or p(560,
  false) or p(561, false) or p(562, false) or p(563, F) and p(564, false) or p(565, nil) or p(566, F)
  or p(567, nil) or p(568, nil) or p(569, nil) and p(570, F) or p(571, 1) or p(572, F) or p(573, F) or
  p(574, false) or p(575, nil) or p(576, nil) or p(577, nil) or p(578, F) or p(579, F) or p(580, 1) or
  p(581, false) or p(582, F) or p(583, nil) or p(584, false) and p(585, F) and p(586, F) or p(587, F)
  or p(588, F) or p(589, false) or p(590, false) or p(591, false) or p(592, T) or p(593, nil) or
  p(594, F) or p(595, false) or p(596, false) or p(597, nil) and p(598, F) or p(599, F)) then flush('not4 then') else flush('not4 else') end
local v5 = p(0, 1) and p(1, 's') and p(2, false) and p(3, 1) and p(4, F) and p(5, 1) or p(6, 1) and p(7, 0) and
  p(8, 0) and p(9, 1) and p(10, 's') and p(11, 0) and p(12, 1) and p(13, 's') or p(14, 's') and p(15,
  1) and p(16, T) and p(17, 1) and p(18, F) and p(19, 1) and p(20, 1) and p(21, T) or p(22, T) and
  p(23, F) or p(24, 1) and p(25, 's') and p(26, 1) and p(27, 's') and p(28, T) and p(29, nil) and
  p(30, 's') and p(31, T) and p(32, T) or p(33, T) and p(34, 1) and p(35, T) and p(36, 1) and p(37, 1)
  and p(38, false) and p(39, 1) or p(40, 's') and p(41, 's') and p(42, F) and p(43, 0) and p(44, 1)
  and p(45, T) and p(46, 1) and p(47, T) or p(48, false) and p(49, 0) or p(50, 's') or p(51, 1) and
  p(52, 1) or p(53, 1) or p(54, 's') or p(55, T) and p(56, 's') and p(57, 1) and p(58, 1) or p(59,
  's') or p(60, nil) and p(61, 1) and p(62, 1) or p(63, 1) and p(64, false) and p(65, 1) and p(66, 0)
  or p(67, 0) and p(68, 0) and p(69, T) or p(70, F) and p(71, 's') and p(72, 0) and p(73, 0) and p(74,
  1) and p(75, 1) and p(76, T) and p(77, 's') and p(78, 1) and p(79, T) and p(80, T) or p(81, 0) and
  p(82, T) and p(83, 1) or p(84, 0) and p(85, 1) and p(86, 1) and p(87, 1) and p(88, T) and p(89, 0)
  and p(90, T) and p(91, 's') and p(92, 0) or p(93, nil) and p(94, 's') and p(95, T) and p(96, 0) or
  p(97, T) or p(98, 0) and p(99, nil) and p(100, F) and p(101, 0) and p(102, T) and p(103, false) and
  p(104, T) or p(105, 0) and p(106, 's') or p(107, false) and p(108, nil) and p(109, 0) and p(110, 1)
  and p(111, nil) or p(112, T) or p(113, 0) or p(114, 0) and p(115, 1) or p(116, 1) and p(117, 0) and
  p(118, F) and p(119, T) and p(120, false) and p(121, 1) and p(122, 0) and p(123, 's') and p(124,
  's') or p(125, T) and p(126, 0) or p(127, T) and p(128, 0) and p(129, 's') and p(130, 's') and
  p(131, 0) and p(132, 0) and p(133, T) and p(134, 0) and p(135, 0) and p(136, 1) and p(137, 's') and
  p(138, nil) and p(139, 0) and p(140, 1) or p(141, 0) and p(142, 1) and p(143, 0) and p(144, 1) and
  p(145, 's') and p(146, F) or p(147, 0) and p(148, 0) and p(149, 's') and p(150, 1) and p(151, nil)
  and p(152, 1) and p(153, T) and p(154, 1) and p(155, 1) and p(156, F) and p(157, 0) and p(158, F)
  and p(159, 0) and p(160, 0) and p(161, 0) or p(162, F) and p(163, T) and p(164, 0) and p(165, T) or
  p(166, 0) or p(167, 's') or p(168, T) and p(169, 's') or p(170, 0) and p(171, 's') and p(172, false)
  or p(173, 0) and p(174, 0) and p(175, 0) and p(176, 1) and p(177, 0) and p(178, T) and p(179, 0) and
  p(180, 's') and p(181, 0) or p(182, 's') and p(183, 1) and p(184, 1) and p(185, 's') and p(186, T)
  and p(187, T) or p(188, 1) and p(189, 1) and p(190, 's') and p(191, 1) or p(192, 0) and p(193, 's')
  and p(194, 1) and p(195, T) and p(196, 0) or p(197, 's') and p(198, 0) and p(199, 0) and p(200, 's')
  and p(201, T) or p(202, 0) and p(203, nil) and p(204, nil) and p(205, 0) and p(206, 's') and p(207,
  1) and p(208, T) and p(209, 0) and p(210, 's') or p(211, 1) and p(212, 0) and p(213, 0) and p(214,
  1) and p(215, 1) or p(216, F) and p(217, 's') and p(218, 's') and p(219, 1) and p(220, 's') and
  p(221, 's') and p(222, 0) and p(223, 0) and p(224, 0) and p(225, T) and p(226, 1) and p(227, 1) and
  p(228, T) and p(229, T) and p(230, 's') and p(231, 1) and p(232, F) and p(233, nil) and p(234, 0)
  and p(235, 0) and p(236, 0) and p(237, 1) or p(238, 1) and p(239, T) and p(240, 's') or p(241, 1)
  and p(242, T) or p(243, 1) and p(244, 's') and p(245, 1) and p(246, false) or p(247, T) or p(248, 0)
  and p(249, 1) and p(250, 0) and p(251, 0) and p(252, T) and p(253, 's') or p(254, T) and p(255, 's')
  and p(256, 's') and p(257, 1) and p(258, 's') or p(259, 1) and p(260, 's') and p(261, 1) and p(262,
  1) or p(263, 's') or p(264, F) and p(265, T) and p(266, 0) and p(267, 0) and p(268, nil) and p(269,
  's') and p(270, 's') and p(271, T) or p(272, T) or p(273, 's') or p(274, 's') and p(275, 0) or
  p(276, 1) and p(277, false) and p(278, 1) and p(279, false) and p(280, T) and p(281, 0) and p(282,
  0) and p(283, 's') or p(284, T) and p(285, 's') and p(286, nil) and p(287, T) and p(288, 's') or
  p(289, T) and p(290, F) and p(291, 's') and p(292, T) and p(293, 0) and p(294, 0) and p(295, 0) or
  p(296, 0) or p(297, T) and p(298, T) and p(299, 1) and p(300, 's') and p(301, 1) and p(302, 0) and
  p(303, 1) and p(304, nil) and p(305, 1) and p(306, T) and p(307, F) and p(308, 0) and p(309, 1) and
  p(310, T) and p(311, 's') and p(312, 's') and p(313, 0) and p(314, 1) and p(315, 's') and p(316, 1)
  and p(317, T) and p(318, 1) and p(319, 0) and p(320, T) and p(321, nil) and p(322, T) and p(323, T)
  and p(324, 0) or p(325, 's') and p(326, 's') and p(327, 1) and p(328, 0) and p(329, 's') and p(330,
  0) and p(331, 's') and p(332, T) and p(333, 1) and p(334, 's') and p(335, T) and p(336, F) and
  p(337, 's') or p(338, false) and p(339, 1) and p(340, 1) and p(341, 1) and p(342, T) and p(343, T)
  and p(344, false) and p(345, F) and p(346, 0) and p(347, 0) and p(348, 's') and p(349, 's') or
  p(350, T) and p(351, 's') and p(352, 0) and p(353, 1) or p(354, 0) and p(355, 's') and p(356, 's')
  and p(357, T) or p(358, 0) and p(359, 0) and p(360, T) and p(361, 1) and p(362, 's') and p(363, 0)
  or p(364, 0) or p(365, 1) and p(366, 1) and p(367, T) and p(368, 1) and p(369, 1) and p(370, 's') or
  p(371, 1) and p(372, T) and p(373, nil) and p(374, 's') and p(375, 1) and p(376, 1) and p(377, 0)
  and p(378, 's') and p(379, 's') and p(380, 1) and p(381, 's') and p(382, 1) and p(383, 0) and p(384,
  's') and p(385, T) and p(386, T) and p(387, T) and p(388, 1) and p(389, 's') and p(390, 0) and
  p(391, 's') and p(392, 0) and p(393, 's') and p(394, T) and p(395, 's') and p(396, 1) and p(397,
  's') and p(398, 's') and p(399, 's')
flush('v5 ' .. tostring(v5))
if p(0, 1) and p(1, 's') and p(2, false) and p(3, 1) and p(4, F) and p(5, 1) or p(6, 1) and p(7, 0) and
  p(8, 0) and p(9, 1) and p(10, 's') and p(11, 0) and p(12, 1) and p(13, 's') or p(14, 's') and p(15,
  1) and p(16, T) and p(17, 1) and p(18, F) and p(19, 1) and p(20, 1) and p(21, T) or p(22, T) and
  p(23, F) or p(24, 1) and p(25, 's') and p(26, 1) and p(27, 's') and p(28, T) and p(29, nil) and
  p(30, 's') and p(31, T) and p(32, T) or p(33, T) and p(34, 1) and p(35, T) and p(36, 1) and p(37, 1)
  and p(38, false) and p(39, 1) or p(40, 's') and p(41, 's') and p(42, F) and p(43, 0) and p(44, 1)
  and p(45, T) and p(46, 1) and p(47, T) or p(48, false) and p(49, 0) or p(50, 's') or p(51, 1) and
  p(52, 1) or p(53, 1) or p(54, 's') or p(55, T) and p(56, 's') and p(57, 1) and p(58, 1) or p(59,
  's') or p(60, nil) and p(61, 1) and p(62, 1) or p(63, 1) and p(64, false) and p(65, 1) and p(66, 0)
  or p(67, 0) and p(68, 0) and p(69, T) or p(70, F) and p(71, 's') and p(72, 0) and p(73, 0) and p(74,
  1) and p(75, 1) and p(76, T) and p(77, 's') and p(78, 1) and p(79, T) and p(80, T) or p(81, 0) and
  p(82, T) and p(83, 1) or p(84, 0) and p(85, 1) and p(86, 1) and p(87, 1) and p(88, T) and p(89, 0)
  and p(90, T) and p(91, 's') and p(92, 0) or p(93, nil) and p(94, 's') and p(95, T) and p(96, 0) or
  p(97, T) or p(98, 0) and p(99, nil) and p(100, F) and p(101, 0) and p(102, T) and p(103, false) and
  p(104, T) or p(105, 0) and p(106, 's') or p(107, false) and p(108, nil) and p(109, 0) and p(110, 1)
  and p(111, nil) or p(112, T) or p(113, 0) or p(114, 0) and p(115, 1) or p(116, 1) and p(117, 0) and
  p(118, F) and p(119, T) and p(120, false) and p(121, 1) and p(122, 0) and p(123, 's') and p(124,
  's') or p(125, T) and p(126, 0) or p(127, T) and p(128, 0) and p(129, 's') and p(130, 's') and
  p(131, 0) and p(132, 0) and p(133, T) and p(134, 0) and p(135, 0) and p(136, 1) and p(137, 's') and
  p(138, nil) and p(139, 0) and p(140, 1) or p(141, 0) and p(142, 1) and p(143, 0) and p(144, 1) and
  p(145, 's') and p(146, F) or p(147, 0) and p(148, 0) and p(149, 's') and p(150, 1) and p(151, nil)
  and p(152, 1) and p(153, T) and p(154, 1) and p(155, 1) and p(156, F) and p(157, 0) and p(158, F)
  and p(159, 0) and p(160, 0) and p(161, 0) or p(162, F) and p(163, T) and p(164, 0) and p(165, T) or
  p(166, 0) or p(167, 's') or p(168, T) and p(169, 's') or p(170, 0) and p(171, 's') and p(172, false)
  or p(173, 0) and p(174, 0) and p(175, 0) and p(176, 1) and p(177, 0) and p(178, T) and p(179, 0) and
  p(180, 's') and p(181, 0) or p(182, 's') and p(183, 1) and p(184, 1) and p(185, 's') and p(186, T)
  and p(187, T) or p(188, 1) and p(189, 1) and p(190, 's') and p(191, 1) or p(192, 0) and p(193, 's')
  and p(194, 1) and p(195, T) and p(196, 0) or p(197, 's') and p(198, 0) and p(199, 0) and p(200, 's')
  and p(201, T) or p(202, 0) and p(203, nil) and p(204, nil) and p(205, 0) and p(206, 's') and p(207,
  1) and p(208, T) and p(209, 0) and p(210, 's') or p(211, 1) and p(212, 0) and p(213, 0) and p(214,
  1) and p(215, 1) or p(216, F) and p(217, 's') and p(218, 's') and p(219, 1) and p(220, 's') and
  p(221, 's') and p(222, 0) and p(223, 0) and p(224, 0) and p(225, T) and p(226, 1) and p(227, 1) and
  p(228, T) and p(229, T) and p(230, 's') and p(231, 1) and p(232, F) and p(233, nil) and p(234, 0)
  and p(235, 0) and p(236, 0) and p(237, 1) or p(238, 1) and p(239, T) and p(240, 's') or p(241, 1)
  and p(242, T) or p(243, 1) and p(244, 's') and p(245, 1) and p(246, false) or p(247, T) or p(248, 0)
  and p(249, 1) and p(250, 0) and p(251, 0) and p(252, T) and p(253, 's') or p(254, T) and p(255, 's')
  and p(256, 's') and p(257, 1) and p(258, 's') or p(259, 1) and p(260, 's') and p(261, 1) and p(262,
  1) or p(263, 's') or p(264, F) and p(265, T) and p(266, 0) and p(267, 0) and p(268, nil) and p(269,
  's') and p(270, 's') and p(271, T) or p(272, T) or p(273, 's') or p(274, 's') and p(275, 0) or
  p(276, 1) and p(277, false) and p(278, 1) and p(279, false) and p(280, T) and p(281, 0) and p(282,
  0) and p(283, 's') or p(284, T) and p(285, 's') and p(286, nil) and p(287, T) and p(288, 's') or
  p(289, T) and p(290, F) and p(291, 's') and p(292, T) and p(293, 0) and p(294, 0) and p(295, 0) or
  p(296, 0) or p(297, T) and p(298, T) and p(299, 1) and p(300, 's') and p(301, 1) and p(302, 0) and
  p(303, 1) and p(304, nil) and p(305, 1) and p(306, T) and p(307, F) and p(308, 0) and p(309, 1) and
  p(310, T) and p(311, 's') and p(312, 's') and p(313, 0) and p(314, 1) and p(315, 's') and p(316, 1)
  and p(317, T) and p(318, 1) and p(319, 0) and p(320, T) and p(321, nil) and p(322, T) and p(323, T)
  and p(324, 0) or p(325, 's') and p(326, 's') and p(327, 1) and p(328, 0) and p(329, 's') and p(330,
  0) and p(331, 's') and p(332, T) and p(333, 1) and p(334, 's') and p(335, T) and p(336, F) and
  p(337, 's') or p(338, false) and p(339, 1) and p(340, 1) and p(341, 1) and p(342, T) and p(343, T)
  and p(344, false) and p(345, F) and p(346, 0) and p(347, 0) and p(348, 's') and p(349, 's') or
  p(350, T) and p(351, 's') and p(352, 0) and p(353, 1) or p(354, 0) and p(355, 's') and p(356, 's')
  and p(357, T) or p(358, 0) and p(359, 0) and p(360, T) and p(361, 1) and p(362, 's') and p(363, 0)
  or p(364, 0) or p(365, 1) and p(366, 1) and p(367, T) and p(368, 1) and p(369, 1) and p(370, 's') or
  p(371, 1) and p(372, T) and p(373, nil) and p(374, 's') and p(375, 1) and p(376, 1) and p(377, 0)
  and p(378, 's') and p(379, 's') and p(380, 1) and p(381, 's') and p(382, 1) and p(383, 0) and p(384,
  's') and p(385, T) and p(386, T) and p(387, T) and p(388, 1) and p(389, 's') and p(390, 0) and
  p(391, 's') and p(392, 0) and p(393, 's') and p(394, T) and p(395, 's') and p(396, 1) and p(397,
  's') and p(398, 's') and p(399, 's') then flush('if5 then') else flush('if5 else') end
if not (p(0, 1) and p(1, 's') and p(2, false) and p(3, 1) and p(4, F) and p(5, 1) or p(6, 1) and p(7, 0) and
  p(8, 0) and p(9, 1) and p(10, 's') and p(11, 0) and p(12, 1) and p(13, 's') or p(14, 's') and p(15,
  1) and p(16, T) and p(17, 1) and p(18, F) and p(19, 1) and p(20, 1) and p(21, T) or p(22, T) and
  p(23, F) or p(24, 1) and p(25, 's') and p(26, 1) and p(27, 's') and p(28, T) and p(29, nil) and
  p(30, 's') and p(31, T) and p(32, T) or p(33, T) and p(34, 1) and p(35, T) and p(36, 1) and p(37, 1)
  and p(38, false) and p(39, 1) or p(40, 's') and p(41, 's') and p(42, F) and p(43, 0) and p(44, 1)
  and p(45, T) and p(46, 1) and p(47, T) or p(48, false) and p(49, 0) or p(50, 's') or p(51, 1) and
  p(52, 1) or p(53, 1) or p(54, 's') or p(55, T) and p(56, 's') and p(57, 1) and p(58, 1) or p(59,
  's') or p(60, nil) and p(61, 1) and p(62, 1) or p(63, 1) and p(64, false) and p(65, 1) and p(66, 0)
  or p(67, 0) and p(68, 0) and p(69, T) or p(70, F) and p(71, 's') and p(72, 0) and p(73, 0) and p(74,
  1) and p(75, 1) and p(76, T) and p(77, 's') and p(78, 1) and p(79, T) and p(80, T) or p(81, 0) and
  p(82, T) and p(83, 1) or p(84, 0) and p(85, 1) and p(86, 1) and p(87, 1) and p(88, T) and p(89, 0)
  and p(90, T) and p(91, 's') and p(92, 0) or p(93, nil) and p(94, 's') and p(95, T) and p(96, 0) or
  p(97, T) or p(98, 0) and p(99, nil) and p(100, F) and p(101, 0) and p(102, T) and p(103, false) and
  p(104, T) or p(105, 0) and p(106, 's') or p(107, false) and p(108, nil) and p(109, 0) and p(110, 1)
  and p(111, nil) or p(112, T) or p(113, 0) or p(114, 0) and p(115, 1) or p(116, 1) and p(117, 0) and
  p(118, F) and p(119, T) and p(120, false) and p(121, 1) and p(122, 0) and p(123, 's') and p(124,
  's') or p(125, T) and p(126, 0) or p(127, T) and p(128, 0) and p(129, 's') and p(130, 's') and
  p(131, 0) and p(132, 0) and p(133, T) and p(134, 0) and p(135, 0) and p(136, 1) and p(137, 's') and
  p(138, nil) and p(139, 0) and p(140, 1) or p(141, 0) and p(142, 1) and p(143, 0) and p(144, 1) and
  p(145, 's') and p(146, F) or p(147, 0) and p(148, 0) and p(149, 's') and p(150, 1) and p(151, nil)
  and p(152, 1) and p(153, T) and p(154, 1) and p(155, 1) and p(156, F) and p(157, 0) and p(158, F)
  and p(159, 0) and p(160, 0) and p(161, 0) or p(162, F) and p(163, T) and p(164, 0) and p(165, T) or
  p(166, 0) or p(167, 's') or p(168, T) and p(169, 's') or p(170, 0) and p(171, 's') and p(172, false)
  or p(173, 0) and p(174, 0) and p(175, 0) and p(176, 1) and p(177, 0) and p(178, T) and p(179, 0) and
  p(180, 's') and p(181, 0) or p(182, 's') and p(183, 1) and p(184, 1) and p(185, 's') and p(186, T)
  and p(187, T) or p(188, 1) and p(189, 1) and p(190, 's') and p(191, 1) or p(192, 0) and p(193, 's')
  and p(194, 1) and p(195, T) and p(196, 0) or p(197, 's') and p(198, 0) and p(199, 0) and p(200, 's')
  and p(201, T) or p(202, 0) and p(203, nil) and p(204, nil) and p(205, 0) and p(206, 's') and p(207,
  1) and p(208, T) and p(209, 0) and p(210, 's') or p(211, 1) and p(212, 0) and p(213, 0) and p(214,
  1) and p(215, 1) or p(216, F) and p(217, 's') and p(218, 's') and p(219, 1) and p(220, 's') and
  p(221, 's') and p(222, 0) and p(223, 0) and p(224, 0) and p(225, T) and p(226, 1) and p(227, 1) and
  p(228, T) and p(229, T) and p(230, 's') and p(231, 1) and p(232, F) and p(233, nil) and p(234, 0)
  and p(235, 0) and p(236, 0) and p(237, 1) or p(238, 1) and p(239, T) and p(240, 's') or p(241, 1)
  and p(242, T) or p(243, 1) and p(244, 's') and p(245, 1) and p(246, false) or p(247, T) or p(248, 0)
  and p(249, 1) and p(250, 0) and p(251, 0) and p(252, T) and p(253, 's') or p(254, T) and p(255, 's')
  and p(256, 's') and p(257, 1) and p(258, 's') or p(259, 1) and p(260, 's') and p(261, 1) and p(262,
  1) or p(263, 's') or p(264, F) and p(265, T) and p(266, 0) and p(267, 0) and p(268, nil) and p(269,
  's') and p(270, 's') and p(271, T) or p(272, T) or p(273, 's') or p(274, 's') and p(275, 0) or
  p(276, 1) and p(277, false) and p(278, 1) and p(279, false) and p(280, T) and p(281, 0) and p(282,
  0) and p(283, 's') or p(284, T) and p(285, 's') and p(286, nil) and p(287, T) and p(288, 's') or
  p(289, T) and p(290, F) and p(291, 's') and p(292, T) and p(293, 0) and p(294, 0) and p(295, 0) or
  p(296, 0) or p(297, T) and p(298, T) and p(299, 1) and p(300, 's') and p(301, 1) and p(302, 0) and
  p(303, 1) and p(304, nil) and p(305, 1) and p(306, T) and p(307, F) and p(308, 0) and p(309, 1) and
  p(310, T) and p(311, 's') and p(312, 's') and p(313, 0) and p(314, 1) and p(315, 's') and p(316, 1)
  and p(317, T) and p(318, 1) and p(319, 0) and p(320, T) and p(321, nil) and p(322, T) and p(323, T)
  and p(324, 0) or p(325, 's') and p(326, 's') and p(327, 1) and p(328, 0) and p(329, 's') and p(330,
  0) and p(331, 's') and p(332, T) and p(333, 1) and p(334, 's') and p(335, T) and p(336, F) and
  p(337, 's') or p(338, false) and p(339, 1) and p(340, 1) and p(341, 1) and p(342, T) and p(343, T)
  and p(344, false) and p(345, F) and p(346, 0) and p(347, 0) and p(348, 's') and p(349, 's') or
  p(350, T) and p(351, 's') and p(352, 0) and p(353, 1) or p(354, 0) and p(355, 's') and p(356, 's')
  and p(357, T) or p(358, 0) and p(359, 0) and p(360, T) and p(361, 1) and p(362, 's') and p(363, 0)
  or p(364, 0) or p(365, 1) and p(366, 1) and p(367, T) and p(368, 1) and p(369, 1) and p(370, 's') or
  p(371, 1) and p(372, T) and p(373, nil) and p(374, 's') and p(375, 1) and p(376, 1) and p(377, 0)
  and p(378, 's') and p(379, 's') and p(380, 1) and p(381, 's') and p(382, 1) and p(383, 0) and p(384,
  's') and p(385, T) and p(386, T) and p(387, T) and p(388, 1) and p(389, 's') and p(390, 0) and
  p(391, 's') and p(392, 0) and p(393, 's') and p(394, T) and p(395, 's') and p(396, 1) and p(397,
  's') and p(398, 's') and p(399, 's')) then flush('not5 then') else flush('not5 else') end
local v6 = p(0, 1) and p(1, nil) or p(2, nil) and p(3, false) and p(4, nil) or p(5, false) or p(6, false) or
  p(7, nil) or p(8, nil) or p(9, false) or p(10, nil) or p(11, 1) and p(12, nil) or p(13, T) or p(14,
  F) or p(15, nil) and p(16, nil) or p(17, 's') and p(18, T) or p(19, nil) or p(20, F) and p(21, F)
  and p(22, false) and p(23, F) or p(24, nil) or p(25, false) and p(26, T) or p(27, false) and p(28,
  false) or p(29, F) or p(30, F) or p(31, false) or p(32, F) or p(33, nil) or p(34, nil) or p(35, nil)
  and p(36, false) or p(37, false) or p(38, nil) or p(39, false) or p(40, 1) or p(41, nil) or p(42,
  false) or p(43, F) and p(44, false) or p(45, false) or p(46, F) or p(47, nil) or p(48, false) or
  p(49, false) or p(50, F) or p(51, 0) and p(52, F) or p(53, false) and p(54, F) and p(55, 1) and
  p(56, nil) or p(57, false) or p(58, F) or p(59, F) or p(60, 1) and p(61, false) or p(62, nil) or
  p(63, nil) or p(64, false) or p(65, false) or p(66, false) or p(67, F) or p(68, false) or p(69, 0)
  and p(70, F) or p(71, false) and p(72, F) or p(73, T) or p(74, false) or p(75, false) or p(76, 1) or
  p(77, T) or p(78, false) and p(79, 1) or p(80, nil) or p(81, false) or p(82, false) or p(83, F) or
  p(84, T) or p(85, 's') or p(86, false) or p(87, false) or p(88, F) and p(89, nil) or p(90, F) or
  p(91, 's') or p(92, 0) and p(93, 0) and p(94, 1) or p(95, F) or p(96, nil) and p(97, nil) or p(98,
  false) or p(99, F) and p(100, F) or p(101, nil) or p(102, nil) or p(103, F) or p(104, false) or
  p(105, false) or p(106, nil) or p(107, 0) and p(108, nil) or p(109, F) and p(110, 1) or p(111, nil)
  and p(112, false) or p(113, false) or p(114, nil) and p(115, false) or p(116, F) or p(117, F) or
  p(118, F) or p(119, nil) and p(120, nil) and p(121, 's') or p(122, nil) or p(123, false) or p(124,
  0) and p(125, F) and p(126, nil) or p(127, F) and p(128, false) and p(129, F) or p(130, nil) and
  p(131, false) or p(132, 's') or p(133, 's') or p(134, 's') or p(135, nil) or p(136, false) or p(137,
  T) or p(138, false) and p(139, 's') and p(140, false) or p(141, nil) or p(142, F) or p(143, 's') or
  p(144, F) and p(145, F) or p(146, nil) and p(147, 1) or p(148, T) or p(149, nil) or p(150, T) or
  p(151, false) and p(152, F) or p(153, nil) and p(154, false) or p(155, nil) or p(156, false) and
  p(157, false) or p(158, F) or p(159, false) and p(160, 0) or p(161, 's') or p(162, nil) or p(163,
  nil) and p(164, 's') and p(165, F) or p(166, nil) and p(167, false) and p(168, nil) and p(169, nil)
  and p(170, F) and p(171, false) or p(172, nil) or p(173, false) or p(174, 's') and p(175, false) or
  p(176, nil) and p(177, nil) and p(178, false) or p(179, T) and p(180, nil) or p(181, T) or p(182, F)
  and p(183, F) or p(184, false) or p(185, F) or p(186, F) or p(187, T) or p(188, nil) or p(189, F) or
  p(190, 's') or p(191, 's') and p(192, F) or p(193, F) and p(194, nil) or p(195, 0) or p(196, false)
  and p(197, nil) or p(198, nil) or p(199, nil) or p(200, nil) or p(201, 0) and p(202, nil) or p(203,
  false) and p(204, nil) and p(205, 's') or p(206, nil) or p(207, 1) or p(208, false) or p(209, 0) or
  p(210, nil) or p(211, F) and p(212, F) or p(213, F) or p(214, F) or p(215, 's') and p(216, false) or
  p(217, nil) or p(218, nil) or p(219, 0) or p(220, F) or p(221, F) or p(222, nil) or p(223, nil) or
  p(224, F) or p(225, false) and p(226, false) and p(227, F) or p(228, false) or p(229, false) and
  p(230, F) and p(231, nil) and p(232, false) and p(233, nil) or p(234, nil) or p(235, 0) and p(236,
  nil) and p(237, F) and p(238, nil) or p(239, false) or p(240, nil) or p(241, 1) or p(242, false) and
  p(243, T) or p(244, 0) or p(245, F) or p(246, false) or p(247, F) and p(248, F) or p(249, nil) or
  p(250, false) or p(251, false) and p(252, false) or p(253, F) and p(254, F) or p(255, nil) and
  p(256, nil) or p(257, false) and p(258, F) or p(259, F) or p(260, 0) or p(261, F) or p(262, F) or
  p(263, F) or p(264, 0) or p(265, F) or p(266, F) or p(267, nil) and p(268, F) or p(269, false) and
  p(270, nil) or p(271, F) and p(272, nil) or p(273, F) and p(274, F) or p(275, 0) or p(276, T) or
  p(277, 's') or p(278, nil) or p(279, nil) or p(280, F) or p(281, nil) or p(282, F) or p(283, nil)
  and p(284, false) or p(285, false) and p(286, 's') or p(287, nil) or p(288, nil) and p(289, F) and
  p(290, false) or p(291, false) or p(292, F) or p(293, nil) or p(294, 's') or p(295, false) or p(296,
  F) or p(297, nil) and p(298, 's') and p(299, nil)
flush('v6 ' .. tostring(v6))
if p(0, 1) and p(1, nil) or p(2, nil) and p(3, false) and p(4, nil) or p(5, false) or p(6, false) or
  p(7, nil) or p(8, nil) or p(9, false) or p(10, nil) or p(11, 1) and p(12, nil) or p(13, T) or p(14,
  F) or p(15, nil) and p(16, nil) or p(17, 's') and p(18, T) or p(19, nil) or p(20, F) and p(21, F)
  and p(22, false) and p(23, F) or p(24, nil) or p(25, false) and p(26, T) or p(27, false) and p(28,
  false) or p(29, F) or p(30, F) or p(31, false) or p(32, F) or p(33, nil) or p(34, nil) or p(35, nil)
  and p(36, false) or p(37, false) or p(38, nil) or p(39, false) or p(40, 1) or p(41, nil) or p(42,
  false) or p(43, F) and p(44, false) or p(45, false) or p(46, F) or p(47, nil) or p(48, false) or
  p(49, false) or p(50, F) or p(51, 0) and p(52, F) or p(53, false) and p(54, F) and p(55, 1) and
  p(56, nil) or p(57, false) or p(58, F) or p(59, F) or p(60, 1) and p(61, false) or p(62, nil) or
  p(63, nil) or p(64, false) or p(65, false) or p(66, false) or p(67, F) or p(68, false) or p(69, 0)
  and p(70, F) or p(71, false) and p(72, F) or p(73, T) or p(74, false) or p(75, false) or p(76, 1) or
  p(77, T) or p(78, false) and p(79, 1) or p(80, nil) or p(81, false) or p(82, false) or p(83, F) or
  p(84, T) or p(85, 's') or p(86, false) or p(87, false) or p(88, F) and p(89, nil) or p(90, F) or
  p(91, 's') or p(92, 0) and p(93, 0) and p(94, 1) or p(95, F) or p(96, nil) and p(97, nil) or p(98,
  false) or p(99, F) and p(100, F) or p(101, nil) or p(102, nil) or p(103, F) or p(104, false) or
  p(105, false) or p(106, nil) or p(107, 0) and p(108, nil) or p(109, F) and p(110, 1) or p(111, nil)
  and p(112, false) or p(113, false) or p(114, nil) and p(115, false) or p(116, F) or p(117, F) or
  p(118, F) or p(119, nil) and p(120, nil) and p(121, 's') or p(122, nil) or p(123, false) or p(124,
  0) and p(125, F) and p(126, nil) or p(127, F) and p(128, false) and p(129, F) or p(130, nil) and
  p(131, false) or p(132, 's') or p(133, 's') or p(134, 's') or p(135, nil) or p(136, false) or p(137,
  T) or p(138, false) and p(139, 's') and p(140, false) or p(141, nil) or p(142, F) or p(143, 's') or
  p(144, F) and p(145, F) or p(146, nil) and p(147, 1) or p(148, T) or p(149, nil) or p(150, T) or
  p(151, false) and p(152, F) or p(153, nil) and p(154, false) or p(155, nil) or p(156, false) and
  p(157, false) or p(158, F) or p(159, false) and p(160, 0) or p(161, 's') or p(162, nil) or p(163,
  nil) and p(164, 's') and p(165, F) or p(166, nil) and p(167, false) and p(168, nil) and p(169, nil)
  and p(170, F) and p(171, false) or p(172, nil) or p(173, false) or p(174, 's') and p(175, false) or
  p(176, nil) and p(177, nil) and p(178, false) or p(179, T) and p(180, nil) or p(181, T) or p(182, F)
  and p(183, F) or p(184, false) or p(185, F) or p(186, F) or p(187, T) or p(188, nil) or p(189, F) or
  p(190, 's') or p(191, 's') and p(192, F) or p(193, F) and p(194, nil) or p(195, 0) or p(196, false)
  and p(197, nil) or p(198, nil) or p(199, nil) or p(200, nil) or p(201, 0) and p(202, nil) or p(203,
  false) and p(204, nil) and p(205, 's') or p(206, nil) or p(207, 1) or p(208, false) or p(209, 0) or
  p(210, nil) or p(211, F) and p(212, F) or p(213, F) or p(214, F) or p(215, 's') and p(216, false) or
  p(217, nil) or p(218, nil) or p(219, 0) or p(220, F) or p(221, F) or p(222, nil) or p(223, nil) or
  p(224, F) or p(225, false) and p(226, false) and p(227, F) or p(228, false) or p(229, false) and
  p(230, F) and p(231, nil) and p(232, false) and p(233, nil) or p(234, nil) or p(235, 0) and p(236,
  nil) and p(237, F) and p(238, nil) or p(239, false) or p(240, nil) or p(241, 1) or p(242, false) and
  p(243, T) or p(244, 0) or p(245, F) or p(246, false) or p(247, F) and p(248, F) or p(249, nil) or
  p(250, false) or p(251, false) and p(252, false) or p(253, F) and p(254, F) or p(255, nil) and
  p(256, nil) or p(257, false) and p(258, F) or p(259, F) or p(260, 0) or p(261, F) or p(262, F) or
  p(263, F) or p(264, 0) or p(265, F) or p(266, F) or p(267, nil) and p(268, F) or p(269, false) and
  p(270, nil) or p(271, F) and p(272, nil) or p(273, F) and p(274, F) or p(275, 0) or p(276, T) or
  p(277, 's') or p(278, nil) or p(279, nil) or p(280, F) or p(281, nil) or p(282, F) or p(283, nil)
  and p(284, false) or p(285, false) and p(286, 's') or p(287, nil) or p(288, nil) and p(289, F) and
  p(290, false) or p(291, false) or p(292, F) or p(293, nil) or p(294, 's') or p(295, false) or p(296,
  F) or p(297, nil) and p(298, 's') and p(299, nil) then flush('if6 then') else flush('if6 else') end
if not (p(0, 1) and p(1, nil) or p(2, nil) and p(3, false) and p(4, nil) or p(5, false) or p(6, false) or
  p(7, nil) or p(8, nil) or p(9, false) or p(10, nil) or p(11, 1) and p(12, nil) or p(13, T) or p(14,
  F) or p(15, nil) and p(16, nil) or p(17, 's') and p(18, T) or p(19, nil) or p(20, F) and p(21, F)
  and p(22, false) and p(23, F) or p(24, nil) or p(25, false) and p(26, T) or p(27, false) and p(28,
  false) or p(29, F) or p(30, F) or p(31, false) or p(32, F) or p(33, nil) or p(34, nil) or p(35, nil)
  and p(36, false) or p(37, false) or p(38, nil) or p(39, false) or p(40, 1) or p(41, nil) or p(42,
  false) or p(43, F) and p(44, false) or p(45, false) or p(46, F) or p(47, nil) or p(48, false) or
  p(49, false) or p(50, F) or p(51, 0) and p(52, F) or p(53, false) and p(54, F) and p(55, 1) and
  p(56, nil) or p(57, false) or p(58, F) or p(59, F) or p(60, 1) and p(61, false) or p(62, nil) or
  p(63, nil) or p(64, false) or p(65, false) or p(66, false) or p(67, F) or p(68, false) or p(69, 0)
  and p(70, F) or p(71, false) and p(72, F) or p(73, T) or p(74, false) or p(75, false) or p(76, 1) or
  p(77, T) or p(78, false) and p(79, 1) or p(80, nil) or p(81, false) or p(82, false) or p(83, F) or
  p(84, T) or p(85, 's') or p(86, false) or p(87, false) or p(88, F) and p(89, nil) or p(90, F) or
  p(91, 's') or p(92, 0) and p(93, 0) and p(94, 1) or p(95, F) or p(96, nil) and p(97, nil) or p(98,
  false) or p(99, F) and p(100, F) or p(101, nil) or p(102, nil) or p(103, F) or p(104, false) or
  p(105, false) or p(106, nil) or p(107, 0) and p(108, nil) or p(109, F) and p(110, 1) or p(111, nil)
  and p(112, false) or p(113, false) or p(114, nil) and p(115, false) or p(116, F) or p(117, F) or
  p(118, F) or p(119, nil) and p(120, nil) and p(121, 's') or p(122, nil) or p(123, false) or p(124,
  0) and p(125, F) and p(126, nil) or p(127, F) and p(128, false) and p(129, F) or p(130, nil) and
  p(131, false) or p(132, 's') or p(133, 's') or p(134, 's') or p(135, nil) or p(136, false) or p(137,
  T) or p(138, false) and p(139, 's') and p(140, false) or p(141, nil) or p(142, F) or p(143, 's') or
  p(144, F) and p(145, F) or p(146, nil) and p(147, 1) or p(148, T) or p(149, nil) or p(150, T) or
  p(151, false) and p(152, F) or p(153, nil) and p(154, false) or p(155, nil) or p(156, false) and
  p(157, false) or p(158, F) or p(159, false) and p(160, 0) or p(161, 's') or p(162, nil) or p(163,
  nil) and p(164, 's') and p(165, F) or p(166, nil) and p(167, false) and p(168, nil) and p(169, nil)
  and p(170, F) and p(171, false) or p(172, nil) or p(173, false) or p(174, 's') and p(175, false) or
  p(176, nil) and p(177, nil) and p(178, false) or p(179, T) and p(180, nil) or p(181, T) or p(182, F)
  and p(183, F) or p(184, false) or p(185, F) or p(186, F) or p(187, T) or p(188, nil) or p(189, F) or
  p(190, 's') or p(191, 's') and p(192, F) or p(193, F) and p(194, nil) or p(195, 0) or p(196, false)
  and p(197, nil) or p(198, nil) or p(199, nil) or p(200, nil) or p(201, 0) and p(202, nil) or p(203,
  false) and p(204, nil) and p(205, 's') or p(206, nil) or p(207, 1) or p(208, false) or p(209, 0) or
  p(210, nil) or p(211, F) and p(212, F) or p(213, F) or p(214, F) or p(215, 's') and p(216, false) or
  p(217, nil) or p(218, nil) or p(219, 0) or p(220, F) or p(221, F) or p(222, nil) or p(223, nil) or
  p(224, F) or p(225, false) and p(226, false) and p(227, F) or p(228, false) or p(229, false) and
  p(230, F) and p(231, nil) and p(232, false) and p(233, nil) or p(234, nil) or p(235, 0) and p(236,
  nil) and p(237, F) and p(238, nil) or p(239, false) or p(240, nil) or p(241, 1) or p(242, false) and
  p(243, T) or p(244, 0) or p(245, F) or p(246, false) or p(247, F) and p(248, F) or p(249, nil) or
  p(250, false) or p(251, false) and p(252, false) or p(253, F) and p(254, F) or p(255, nil) and
  p(256, nil) or p(257, false) and p(258, F) or p(259, F) or p(260, 0) or p(261, F) or p(262, F) or
  p(263, F) or p(264, 0) or p(265, F) or p(266, F) or p(267, nil) and p(268, F) or p(269, false) and
  p(270, nil) or p(271, F) and p(272, nil) or p(273, F) and p(274, F) or p(275, 0) or p(276, T) or
  p(277, 's') or p(278, nil) or p(279, nil) or p(280, F) or p(281, nil) or p(282, F) or p(283, nil)
  and p(284, false) or p(285, false) and p(286, 's') or p(287, nil) or p(288, nil) and p(289, F) and
  p(290, false) or p(291, false) or p(292, F) or p(293, nil) or p(294, 's') or p(295, false) or p(296,
  F) or p(297, nil) and p(298, 's') and p(299, nil)) then flush('not6 then') else flush('not6 else') end
local v7 = p(0, T) and p(1, nil) and p(2, T) and p(3, nil) and p(4, 1) or p(5, 1) or p(6, F) and p(7, 's') and
  p(8, F) or p(9, false) or p(10, false) and p(11, F) or p(12, F) or p(13, 's') or p(14, T) and p(15,
  nil) and p(16, F) and p(17, F) and p(18, F) or p(19, F) or p(20, T) or p(21, false) and p(22, false)
  or p(23, F) or p(24, 0) or p(25, F) or p(26, 's') or p(27, nil) or p(28, false) or p(29, 1) and
  p(30, 1) and p(31, 0) and p(32, T) or p(33, 0) or p(34, F) and p(35, F) or p(36, nil) or p(37,
  false) and p(38, 1) or p(39, nil)
flush('v7 ' .. tostring(v7))
if p(0, T) and p(1, nil) and p(2, T) and p(3, nil) and p(4, 1) or p(5, 1) or p(6, F) and p(7, 's') and
  p(8, F) or p(9, false) or p(10, false) and p(11, F) or p(12, F) or p(13, 's') or p(14, T) and p(15,
  nil) and p(16, F) and p(17, F) and p(18, F) or p(19, F) or p(20, T) or p(21, false) and p(22, false)
  or p(23, F) or p(24, 0) or p(25, F) or p(26, 's') or p(27, nil) or p(28, false) or p(29, 1) and
  p(30, 1) and p(31, 0) and p(32, T) or p(33, 0) or p(34, F) and p(35, F) or p(36, nil) or p(37,
  false) and p(38, 1) or p(39, nil) then flush('if7 then') else flush('if7 else') end
if not (p(0, T) and p(1, nil) and p(2, T) and p(3, nil) and p(4, 1) or p(5, 1) or p(6, F) and p(7, 's') and
  p(8, F) or p(9, false) or p(10, false) and p(11, F) or p(12, F) or p(13, 's') or p(14, T) and p(15,
  nil) and p(16, F) and p(17, F) and p(18, F) or p(19, F) or p(20, T) or p(21, false) and p(22, false)
  or p(23, F) or p(24, 0) or p(25, F) or p(26, 's') or p(27, nil) or p(28, false) or p(29, 1) and
  p(30, 1) and p(31, 0) and p(32, T) or p(33, 0) or p(34, F) and p(35, F) or p(36, nil) or p(37,
  false) and p(38, 1) or p(39, nil)) then flush('not7 then') else flush('not7 else') end
local x = 4
local m1 = p('a', x) + 1 == 5 and p('b', x) * 2 > 7 and p('c', 'yes') or p('d', 'no')
flush('m1 ' .. tostring(m1))
local m2 = p('a', x) - 1 < 0 and p('b', 'neg') or p('c', x) > 3 and p('d', 'big') or p('e', 'small')
flush('m2 ' .. tostring(m2))
x = x > 3 and x + 1 or x - 1
print('x', x)
x = nil and 1 or x and x + 1 or 0
print('x2', x)
local i = 0
while p('w', i) < 3 and p('w2', true) or p('w3', false) do i = i + 1 end
flush('while ' .. i)
local j = 0
repeat j = j + 1 until p('r', j) >= 2 and p('r2', j) % 2 == 0 or p('r3', j) > 5
flush('repeat ' .. j)
local lo = p(0, false) or p(1, false) or p(2, false) or p(3, false) or p(4, false) or p(5, false) or p(6,
  false) or p(7, false) or p(8, false) or p(9, false) or p(10, false) or p(11, false) or p(12, false)
  or p(13, false) or p(14, false) or p(15, false) or p(16, false) or p(17, false) or p(18, false) or
  p(19, false) or p(20, false) or p(21, false) or p(22, false) or p(23, false) or p(24, false) or
  p(25, false) or p(26, false) or p(27, false) or p(28, false) or p(29, false) or p(30, false) or
  p(31, false) or p(32, false) or p(33, false) or p(34, false) or p(35, false) or p(36, false) or
  p(37, false) or p(38, false) or p(39, false) or p(40, false) or p(41, false) or p(42, false) or
  p(43, false) or p(44, false) or p(45, false) or p(46, false) or p(47, false) or p(48, false) or
  p(49, false) or p(50, false) or p(51, false) or p(52, false) or p(53, false) or p(54, false) or
  p(55, false) or p(56, false) or p(57, false) or p(58, false) or p(59, false) or p(60, false) or
  p(61, false) or p(62, false) or p(63, false) or p(64, false) or p(65, false) or p(66, false) or
  p(67, false) or p(68, false) or p(69, false) or p(70, false) or p(71, false) or p(72, false) or
  p(73, false) or p(74, false) or p(75, false) or p(76, false) or p(77, false) or p(78, false) or
  p(79, false) or p(80, false) or p(81, false) or p(82, false) or p(83, false) or p(84, false) or
  p(85, false) or p(86, false) or p(87, false) or p(88, false) or p(89, false) or p(90, false) or
  p(91, false) or p(92, false) or p(93, false) or p(94, false) or p(95, false) or p(96, false) or
  p(97, false) or p(98, false) or p(99, false) or p(100, false) or p(101, false) or p(102, false) or
  p(103, false) or p(104, false) or p(105, false) or p(106, false) or p(107, false) or p(108, false)
  or p(109, false) or p(110, false) or p(111, false) or p(112, false) or p(113, false) or p(114,
  false) or p(115, false) or p(116, false) or p(117, false) or p(118, false) or p(119, false) or
  p(120, false) or p(121, false) or p(122, false) or p(123, false) or p(124, false) or p(125, false)
  or p(126, false) or p(127, false) or p(128, false) or p(129, false) or p(130, false) or p(131,
  false) or p(132, false) or p(133, false) or p(134, false) or p(135, false) or p(136, false) or
  p(137, false) or p(138, false) or p(139, false) or p(140, false) or p(141, false) or p(142, false)
  or p(143, false) or p(144, false) or p(145, false) or p(146, false) or p(147, false) or p(148,
  false) or p(149, false) or p(150, false) or p(151, false) or p(152, false) or p(153, false) or
  p(154, false) or p(155, false) or p(156, false) or p(157, false) or p(158, false) or p(159, false)
  or p(160, false) or p(161, false) or p(162, false) or p(163, false) or p(164, false) or p(165,
  false) or p(166, false) or p(167, false) or p(168, false) or p(169, false) or p(170, false) or
  p(171, false) or p(172, false) or p(173, false) or p(174, false) or p(175, false) or p(176, false)
  or p(177, false) or p(178, false) or p(179, false) or p(180, false) or p(181, false) or p(182,
  false) or p(183, false) or p(184, false) or p(185, false) or p(186, false) or p(187, false) or
  p(188, false) or p(189, false) or p(190, false) or p(191, false) or p(192, false) or p(193, false)
  or p(194, false) or p(195, false) or p(196, false) or p(197, false) or p(198, false) or p(199,
  false) or p(200, false) or p(201, false) or p(202, false) or p(203, false) or p(204, false) or
  p(205, false) or p(206, false) or p(207, false) or p(208, false) or p(209, false) or p(210, false)
  or p(211, false) or p(212, false) or p(213, false) or p(214, false) or p(215, false) or p(216,
  false) or p(217, false) or p(218, false) or p(219, false) or p(220, false) or p(221, false) or
  p(222, false) or p(223, false) or p(224, false) or p(225, false) or p(226, false) or p(227, false)
  or p(228, false) or p(229, false) or p(230, false) or p(231, false) or p(232, false) or p(233,
  false) or p(234, false) or p(235, false) or p(236, false) or p(237, false) or p(238, false) or
  p(239, false) or p(240, false) or p(241, false) or p(242, false) or p(243, false) or p(244, false)
  or p(245, false) or p(246, false) or p(247, false) or p(248, false) or p(249, false) or p(250,
  false) or p(251, false) or p(252, false) or p(253, false) or p(254, false) or p(255, false) or
  p(256, false) or p(257, false) or p(258, false) or p(259, false) or p(260, false) or p(261, false)
  or p(262, false) or p(263, false) or p(264, false) or p(265, false) or p(266, false) or p(267,
  false) or p(268, false) or p(269, false) or p(270, false) or p(271, false) or p(272, false) or
  p(273, false) or p(274, false) or p(275, false) or p(276, false) or p(277, false) or p(278, false)
  or p(279, false) or p(280, false) or p(281, false) or p(282, false) or p(283, false) or p(284,
  false) or p(285, false) or p(286, false) or p(287, false) or p(288, false) or p(289, false) or
  p(290, false) or p(291, false) or p(292, false) or p(293, false) or p(294, false) or p(295, false)
  or p(296, false) or p(297, false) or p(298, false) or p(299, false) or p(300, false) or p(301,
  false) or p(302, false) or p(303, false) or p(304, false) or p(305, false) or p(306, false) or
  p(307, false) or p(308, false) or p(309, false) or p(310, false) or p(311, false) or p(312, false)
  or p(313, false) or p(314, false) or p(315, false) or p(316, false) or p(317, false) or p(318,
  false) or p(319, false) or p(320, false) or p(321, false) or p(322, false) or p(323, false) or
  p(324, false) or p(325, false) or p(326, false) or p(327, false) or p(328, false) or p(329, false)
  or p(330, false) or p(331, false) or p(332, false) or p(333, false) or p(334, false) or p(335,
  false) or p(336, false) or p(337, false) or p(338, false) or p(339, false) or p(340, false) or
  p(341, false) or p(342, false) or p(343, false) or p(344, false) or p(345, false) or p(346, false)
  or p(347, false) or p(348, false) or p(349, false) or p(350, false) or p(351, false) or p(352,
  false) or p(353, false) or p(354, false) or p(355, false) or p(356, false) or p(357, false) or
  p(358, false) or p(359, false) or p(360, false) or p(361, false) or p(362, false) or p(363, false)
  or p(364, false) or p(365, false) or p(366, false) or p(367, false) or p(368, false) or p(369,
  false) or p(370, false) or p(371, false) or p(372, false) or p(373, false) or p(374, false) or
  p(375, false) or p(376, false) or p(377, false) or p(378, false) or p(379, false) or p(380, false)
  or p(381, false) or p(382, false) or p(383, false) or p(384, false) or p(385, false) or p(386,
  false) or p(387, false) or p(388, false) or p(389, false) or p(390, false) or p(391, false) or
  p(392, false) or p(393, false) or p(394, false) or p(395, false) or p(396, false) or p(397, false)
  or p(398, false) or p(399, false) or p(400, false) or p(401, false) or p(402, false) or p(403,
  false) or p(404, false) or p(405, false) or p(406, false) or p(407, false) or p(408, false) or
  p(409, false) or p(410, false) or p(411, false) or p(412, false) or p(413, false) or p(414, false)
  or p(415, false) or p(416, false) or p(417, false) or p(418, false) or p(419, false) or p(420,
  false) or p(421, false) or p(422, false) or p(423, false) or p(424, false) or p(425, false) or
  p(426, false) or p(427, false) or p(428, false) or p(429, false) or p(430, false) or p(431, false)
  or p(432, false) or p(433, false) or p(434, false) or p(435, false) or p(436, false) or p(437,
  false) or p(438, false) or p(439, false) or p(440, false) or p(441, false) or p(442, false) or
  p(443, false) or p(444, false) or p(445, false) or p(446, false) or p(447, false) or p(448, false)
  or p(449, false) or p(450, false) or p(451, false) or p(452, false) or p(453, false) or p(454,
  false) or p(455, false) or p(456, false) or p(457, false) or p(458, false) or p(459, false) or
  p(460, false) or p(461, false) or p(462, false) or p(463, false) or p(464, false) or p(465, false)
  or p(466, false) or p(467, false) or p(468, false) or p(469, false) or p(470, false) or p(471,
  false) or p(472, false) or p(473, false) or p(474, false) or p(475, false) or p(476, false) or
  p(477, false) or p(478, false) or p(479, false) or p(480, false) or p(481, false) or p(482, false)
  or p(483, false) or p(484, false) or p(485, false) or p(486, false) or p(487, false) or p(488,
  false) or p(489, false) or p(490, false) or p(491, false) or p(492, false) or p(493, false) or
  p(494, false) or p(495, false) or p(496, false) or p(497, false) or p(498, false) or p(499, false)
  or p(500, false) or p(501, false) or p(502, false) or p(503, false) or p(504, false) or p(505,
  false) or p(506, false) or p(507, false) or p(508, false) or p(509, false) or p(510, false) or
  p(511, false) or p(512, false) or p(513, false) or p(514, false) or p(515, false) or p(516, false)
  or p(517, false) or p(518, false) or p(519, false) or p(520, false) or p(521, false) or p(522,
  false) or p(523, false) or p(524, false) or p(525, false) or p(526, false) or p(527, false) or
  p(528, false) or p(529, false) or p(530, false) or p(531, false) or p(532, false) or p(533, false)
  or p(534, false) or p(535, false) or p(536, false) or p(537, false) or p(538, false) or p(539,
  false) or p(540, false) or p(541, false) or p(542, false) or p(543, false) or p(544, false) or
  p(545, false) or p(546, false) or p(547, false) or p(548, false) or p(549, false) or p(550, false)
  or p(551, false) or p(552, false) or p(553, false) or p(554, false) or p(555, false) or p(556,
  false) or p(557, false) or p(558, false) or p(559, false) or p(560, false) or p(561, false) or
  p(562, false) or p(563, false) or p(564, false) or p(565, false) or p(566, false) or p(567, false)
  or p(568, false) or p(569, false) or p(570, false) or p(571, false) or p(572, false) or p(573,
  false) or p(574, false) or p(575, false) or p(576, false) or p(577, false) or p(578, false) or
  p(579, false) or p(580, false) or p(581, false) or p(582, false) or p(583, false) or p(584, false)
  or p(585, false) or p(586, false) or p(587, false) or p(588, false) or p(589, false) or p(590,
  false) or p(591, false) or p(592, false) or p(593, false) or p(594, false) or p(595, false) or
  p(596, false) or p(597, false) or p(598, false) or p(599, false) or p(600, false) or p(601, false)
  or p(602, false) or p(603, false) or p(604, false) or p(605, false) or p(606, false) or p(607,
  false) or p(608, false) or p(609, false) or p(610, false) or p(611, false) or p(612, false) or
  p(613, false) or p(614, false) or p(615, false) or p(616, false) or p(617, false) or p(618, false)
  or p(619, false) or p(620, false) or p(621, false) or p(622, false) or p(623, false) or p(624,
  false) or p(625, false) or p(626, false) or p(627, false) or p(628, false) or p(629, false) or
  p(630, false) or p(631, false) or p(632, false) or p(633, false) or p(634, false) or p(635, false)
  or p(636, false) or p(637, false) or p(638, false) or p(639, false) or p(640, false) or p(641,
  false) or p(642, false) or p(643, false) or p(644, false) or p(645, false) or p(646, false) or
  p(647, false) or p(648, false) or p(649, false) or p(650, false) or p(651, false) or p(652, false)
  or p(653, false) or p(654, false) or p(655, false) or p(656, false) or p(657, false) or p(658,
  false) or p(659, false) or p(660, false) or p(661, false) or p(662, false) or p(663, false) or
  p(664, false) or p(665, false) or p(666, false) or p(667, false) or p(668, false) or p(669, false)
  or p(670, false) or p(671, false) or p(672, false) or p(673, false) or p(674, false) or p(675,
  false) or p(676, false) or p(677, false) or p(678, false) or p(679, false) or p(680, false) or
  p(681, false) or p(682, false) or p(683, false) or p(684, false) or p(685, false) or p(686, false)
  or p(687, false) or p(688, false) or p(689, false) or p(690, false) or p(691, false) or p(692,
  false) or p(693, false) or p(694, false) or p(695, false) or p(696, false) or p(697, false) or
  p(698, false) or p(699, false) or p(700, false) or p(701, false) or p(702, false) or p(703, false)
  or p(704, false) or p(705, false) or p(706, false) or p(707, false) or p(708, false) or p(709,
  false) or p(710, false) or p(711, false) or p(712, false) or p(713, false) or p(714, false) or
  p(715, false) or p(716, false) or p(717, false) or p(718, false) or p(719, false) or p(720, false)
  or p(721, false) or p(722, false) or p(723, false) or p(724, false) or p(725, false) or p(726,
  false) or p(727, false) or p(728, false) or p(729, false) or p(730, false) or p(731, false) or
  p(732, false) or p(733, false) or p(734, false) or p(735, false) or p(736, false) or p(737, false)
  or p(738, false) or p(739, false) or p(740, false) or p(741, false) or p(742, false) or p(743,
  false) or p(744, false) or p(745, false) or p(746, false) or p(747, false) or p(748, false) or
  p(749, false) or p(750, false) or p(751, false) or p(752, false) or p(753, false) or p(754, false)
  or p(755, false) or p(756, false) or p(757, false) or p(758, false) or p(759, false) or p(760,
  false) or p(761, false) or p(762, false) or p(763, false) or p(764, false) or p(765, false) or
  p(766, false) or p(767, false) or p(768, false) or p(769, false) or p(770, false) or p(771, false)
  or p(772, false) or p(773, false) or p(774, false) or p(775, false) or p(776, false) or p(777,
  false) or p(778, false) or p(779, false) or p(780, false) or p(781, false) or p(782, false) or
  p(783, false) or p(784, false) or p(785, false) or p(786, false) or p(787, false) or p(788, false)
  or p(789, false) or p(790, false) or p(791, false) or p(792, false) or p(793, false) or p(794,
  false) or p(795, false) or p(796, false) or p(797, false) or p(798, false) or p(799, false) or
  p(800, false) or p(801, false) or p(802, false) or p(803, false) or p(804, false) or p(805, false)
  or p(806, false) or p(807, false) or p(808, false) or p(809, false) or p(810, false) or p(811,
  false) or p(812, false) or p(813, false) or p(814, false) or p(815, false) or p(816, false) or
  p(817, false) or p(818, false) or p(819, false) or p(820, false) or p(821, false) or p(822, false)
  or p(823, false) or p(824, false) or p(825, false) or p(826, false) or p(827, false) or p(828,
  false) or p(829, false) or p(830, false) or p(831, false) or p(832, false) or p(833, false) or
  p(834, false) or p(835, false) or p(836, false) or p(837, false) or p(838, false) or p(839, false)
  or p(840, false) or p(841, false) or p(842, false) or p(843, false) or p(844, false) or p(845,
  false) or p(846, false) or p(847, false) or p(848, false) or p(849, false) or p(850, false) or
  p(851, false) or p(852, false) or p(853, false) or p(854, false) or p(855, false) or p(856, false)
  or p(857, false) or p(858, false) or p(859, false) or p(860, false) or p(861, false) or p(862,
  false) or p(863, false) or p(864, false) or p(865, false) or p(866, false) or p(867, false) or
  p(868, false) or p(869, false) or p(870, false) or p(871, false) or p(872, false) or p(873, false)
  or p(874, false) or p(875, false) or p(876, false) or p(877, false) or p(878, false) or p(879,
  false) or p(880, false) or p(881, false) or p(882, false) or p(883, false) or p(884, false) or
  p(885, false) or p(886, false) or p(887, false) or p(888, false) or p(889, false) or p(890, false)
  or p(891, false) or p(892, false) or p(893, false) or p(894, false) or p(895, false) or p(896,
  false) or p(897, false) or p(898, false) or p(899, false) or p(900, false) or p(901, false) or
  p(902, false) or p(903, false) or p(904, false) or p(905, false) or p(906, false) or p(907, false)
  or p(908, false) or p(909, false) or p(910, false) or p(911, false) or p(912, false) or p(913,
  false) or p(914, false) or p(915, false) or p(916, false) or p(917, false) or p(918, false) or
  p(919, false) or p(920, false) or p(921, false) or p(922, false) or p(923, false) or p(924, false)
  or p(925, false) or p(926, false) or p(927, false) or p(928, false) or p(929, false) or p(930,
  false) or p(931, false) or p(932, false) or p(933, false) or p(934, false) or p(935, false) or
  p(936, false) or p(937, false) or p(938, false) or p(939, false) or p(940, false) or p(941, false)
  or p(942, false) or p(943, false) or p(944, false) or p(945, false) or p(946, false) or p(947,
  false) or p(948, false) or p(949, false) or p(950, false) or p(951, false) or p(952, false) or
  p(953, false) or p(954, false) or p(955, false) or p(956, false) or p(957, false) or p(958, false)
  or p(959, false) or p(960, false) or p(961, false) or p(962, false) or p(963, false) or p(964,
  false) or p(965, false) or p(966, false) or p(967, false) or p(968, false) or p(969, false) or
  p(970, false) or p(971, false) or p(972, false) or p(973, false) or p(974, false) or p(975, false)
  or p(976, false) or p(977, false) or p(978, false) or p(979, false) or p(980, false) or p(981,
  false) or p(982, false) or p(983, false) or p(984, false) or p(985, false) or p(986, false) or
  p(987, false) or p(988, false) or p(989, false) or p(990, false) or p(991, false) or p(992, false)
  or p(993, false) or p(994, false) or p(995, false) or p(996, false) or p(997, false) or p(998,
  false) or p(999, 'last')
print('long or', lo, #log) log = {}
local la = p(0, 0) and p(1, 1) and p(2, 2) and p(3, 3) and p(4, 4) and p(5, 5) and p(6, 6) and p(7, 7) and p(8,
  8) and p(9, 9) and p(10, 10) and p(11, 11) and p(12, 12) and p(13, 13) and p(14, 14) and p(15, 15)
  and p(16, 16) and p(17, 17) and p(18, 18) and p(19, 19) and p(20, 20) and p(21, 21) and p(22, 22)
  and p(23, 23) and p(24, 24) and p(25, 25) and p(26, 26) and p(27, 27) and p(28, 28) and p(29, 29)
  and p(30, 30) and p(31, 31) and p(32, 32) and p(33, 33) and p(34, 34) and p(35, 35) and p(36, 36)
  and p(37, 37) and p(38, 38) and p(39, 39) and p(40, 40) and p(41, 41) and p(42, 42) and p(43, 43)
  and p(44, 44) and p(45, 45) and p(46, 46) and p(47, 47) and p(48, 48) and p(49, 49) and p(50, 50)
  and p(51, 51) and p(52, 52) and p(53, 53) and p(54, 54) and p(55, 55) and p(56, 56) and p(57, 57)
  and p(58, 58) and p(59, 59) and p(60, 60) and p(61, 61) and p(62, 62) and p(63, 63) and p(64, 64)
  and p(65, 65) and p(66, 66) and p(67, 67) and p(68, 68) and p(69, 69) and p(70, 70) and p(71, 71)
  and p(72, 72) and p(73, 73) and p(74, 74) and p(75, 75) and p(76, 76) and p(77, 77) and p(78, 78)
  and p(79, 79) and p(80, 80) and p(81, 81) and p(82, 82) and p(83, 83) and p(84, 84) and p(85, 85)
  and p(86, 86) and p(87, 87) and p(88, 88) and p(89, 89) and p(90, 90) and p(91, 91) and p(92, 92)
  and p(93, 93) and p(94, 94) and p(95, 95) and p(96, 96) and p(97, 97) and p(98, 98) and p(99, 99)
  and p(100, 100) and p(101, 101) and p(102, 102) and p(103, 103) and p(104, 104) and p(105, 105) and
  p(106, 106) and p(107, 107) and p(108, 108) and p(109, 109) and p(110, 110) and p(111, 111) and
  p(112, 112) and p(113, 113) and p(114, 114) and p(115, 115) and p(116, 116) and p(117, 117) and
  p(118, 118) and p(119, 119) and p(120, 120) and p(121, 121) and p(122, 122) and p(123, 123) and
  p(124, 124) and p(125, 125) and p(126, 126) and p(127, 127) and p(128, 128) and p(129, 129) and
  p(130, 130) and p(131, 131) and p(132, 132) and p(133, 133) and p(134, 134) and p(135, 135) and
  p(136, 136) and p(137, 137) and p(138, 138) and p(139, 139) and p(140, 140) and p(141, 141) and
  p(142, 142) and p(143, 143) and p(144, 144) and p(145, 145) and p(146, 146) and p(147, 147) and
  p(148, 148) and p(149, 149) and p(150, 150) and p(151, 151) and p(152, 152) and p(153, 153) and
  p(154, 154) and p(155, 155) and p(156, 156) and p(157, 157) and p(158, 158) and p(159, 159) and
  p(160, 160) and p(161, 161) and p(162, 162) and p(163, 163) and p(164, 164) and p(165, 165) and
  p(166, 166) and p(167, 167) and p(168, 168) and p(169, 169) and p(170, 170) and p(171, 171) and
  p(172, 172) and p(173, 173) and p(174, 174) and p(175, 175) and p(176, 176) and p(177, 177) and
  p(178, 178) and p(179, 179) and p(180, 180) and p(181, 181) and p(182, 182) and p(183, 183) and
  p(184, 184) and p(185, 185) and p(186, 186) and p(187, 187) and p(188, 188) and p(189, 189) and
  p(190, 190) and p(191, 191) and p(192, 192) and p(193, 193) and p(194, 194) and p(195, 195) and
  p(196, 196) and p(197, 197) and p(198, 198) and p(199, 199) and p(200, 200) and p(201, 201) and
  p(202, 202) and p(203, 203) and p(204, 204) and p(205, 205) and p(206, 206) and p(207, 207) and
  p(208, 208) and p(209, 209) and p(210, 210) and p(211, 211) and p(212, 212) and p(213, 213) and
  p(214, 214) and p(215, 215) and p(216, 216) and p(217, 217) and p(218, 218) and p(219, 219) and
  p(220, 220) and p(221, 221) and p(222, 222) and p(223, 223) and p(224, 224) and p(225, 225) and
  p(226, 226) and p(227, 227) and p(228, 228) and p(229, 229) and p(230, 230) and p(231, 231) and
  p(232, 232) and p(233, 233) and p(234, 234) and p(235, 235) and p(236, 236) and p(237, 237) and
  p(238, 238) and p(239, 239) and p(240, 240) and p(241, 241) and p(242, 242) and p(243, 243) and
  p(244, 244) and p(245, 245) and p(246, 246) and p(247, 247) and p(248, 248) and p(249, 249) and
  p(250, 250) and p(251, 251) and p(252, 252) and p(253, 253) and p(254, 254) and p(255, 255) and
  p(256, 256) and p(257, 257) and p(258, 258) and p(259, 259) and p(260, 260) and p(261, 261) and
  p(262, 262) and p(263, 263) and p(264, 264) and p(265, 265) and p(266, 266) and p(267, 267) and
  p(268, 268) and p(269, 269) and p(270, 270) and p(271, 271) and p(272, 272) and p(273, 273) and
  p(274, 274) and p(275, 275) and p(276, 276) and p(277, 277) and p(278, 278) and p(279, 279) and
  p(280, 280) and p(281, 281) and p(282, 282) and p(283, 283) and p(284, 284) and p(285, 285) and
  p(286, 286) and p(287, 287) and p(288, 288) and p(289, 289) and p(290, 290) and p(291, 291) and
  p(292, 292) and p(293, 293) and p(294, 294) and p(295, 295) and p(296, 296) and p(297, 297) and
  p(298, 298) and p(299, 299) and p(300, 300) and p(301, 301) and p(302, 302) and p(303, 303) and
  p(304, 304) and p(305, 305) and p(306, 306) and p(307, 307) and p(308, 308) and p(309, 309) and
  p(310, 310) and p(311, 311) and p(312, 312) and p(313, 313) and p(314, 314) and p(315, 315) and
  p(316, 316) and p(317, 317) and p(318, 318) and p(319, 319) and p(320, 320) and p(321, 321) and
  p(322, 322) and p(323, 323) and p(324, 324) and p(325, 325) and p(326, 326) and p(327, 327) and
  p(328, 328) and p(329, 329) and p(330, 330) and p(331, 331) and p(332, 332) and p(333, 333) and
  p(334, 334) and p(335, 335) and p(336, 336) and p(337, 337) and p(338, 338) and p(339, 339) and
  p(340, 340) and p(341, 341) and p(342, 342) and p(343, 343) and p(344, 344) and p(345, 345) and
  p(346, 346) and p(347, 347) and p(348, 348) and p(349, 349) and p(350, 350) and p(351, 351) and
  p(352, 352) and p(353, 353) and p(354, 354) and p(355, 355) and p(356, 356) and p(357, 357) and
  p(358, 358) and p(359, 359) and p(360, 360) and p(361, 361) and p(362, 362) and p(363, 363) and
  p(364, 364) and p(365, 365) and p(366, 366) and p(367, 367) and p(368, 368) and p(369, 369) and
  p(370, 370) and p(371, 371) and p(372, 372) and p(373, 373) and p(374, 374) and p(375, 375) and
  p(376, 376) and p(377, 377) and p(378, 378) and p(379, 379) and p(380, 380) and p(381, 381) and
  p(382, 382) and p(383, 383) and p(384, 384) and p(385, 385) and p(386, 386) and p(387, 387) and
  p(388, 388) and p(389, 389) and p(390, 390) and p(391, 391) and p(392, 392) and p(393, 393) and
  p(394, 394) and p(395, 395) and p(396, 396) and p(397, 397) and p(398, 398) and p(399, 399) and
  p(400, 400) and p(401, 401) and p(402, 402) and p(403, 403) and p(404, 404) and p(405, 405) and
  p(406, 406) and p(407, 407) and p(408, 408) and p(409, 409) and p(410, 410) and p(411, 411) and
  p(412, 412) and p(413, 413) and p(414, 414) and p(415, 415) and p(416, 416) and p(417, 417) and
  p(418, 418) and p(419, 419) and p(420, 420) and p(421, 421) and p(422, 422) and p(423, 423) and
  p(424, 424) and p(425, 425) and p(426, 426) and p(427, 427) and p(428, 428) and p(429, 429) and
  p(430, 430) and p(431, 431) and p(432, 432) and p(433, 433) and p(434, 434) and p(435, 435) and
  p(436, 436) and p(437, 437) and p(438, 438) and p(439, 439) and p(440, 440) and p(441, 441) and
  p(442, 442) and p(443, 443) and p(444, 444) and p(445, 445) and p(446, 446) and p(447, 447) and
  p(448, 448) and p(449, 449) and p(450, 450) and p(451, 451) and p(452, 452) and p(453, 453) and
  p(454, 454) and p(455, 455) and p(456, 456) and p(457, 457) and p(458, 458) and p(459, 459) and
  p(460, 460) and p(461, 461) and p(462, 462) and p(463, 463) and p(464, 464) and p(465, 465) and
  p(466, 466) and p(467, 467) and p(468, 468) and p(469, 469) and p(470, 470) and p(471, 471) and
  p(472, 472) and p(473, 473) and p(474, 474) and p(475, 475) and p(476, 476) and p(477, 477) and
  p(478, 478) and p(479, 479) and p(480, 480) and p(481, 481) and p(482, 482) and p(483, 483) and
  p(484, 484) and p(485, 485) and p(486, 486) and p(487, 487) and p(488, 488) and p(489, 489) and
  p(490, 490) and p(491, 491) and p(492, 492) and p(493, 493) and p(494, 494) and p(495, 495) and
  p(496, 496) and p(497, 497) and p(498, 498) and p(499, 499) and p(500, 500) and p(501, 501) and
  p(502, 502) and p(503, 503) and p(504, 504) and p(505, 505) and p(506, 506) and p(507, 507) and
  p(508, 508) and p(509, 509) and p(510, 510) and p(511, 511) and p(512, 512) and p(513, 513) and
  p(514, 514) and p(515, 515) and p(516, 516) and p(517, 517) and p(518, 518) and p(519, 519) and
  p(520, 520) and p(521, 521) and p(522, 522) and p(523, 523) and p(524, 524) and p(525, 525) and
  p(526, 526) and p(527, 527) and p(528, 528) and p(529, 529) and p(530, 530) and p(531, 531) and
  p(532, 532) and p(533, 533) and p(534, 534) and p(535, 535) and p(536, 536) and p(537, 537) and
  p(538, 538) and p(539, 539) and p(540, 540) and p(541, 541) and p(542, 542) and p(543, 543) and
  p(544, 544) and p(545, 545) and p(546, 546) and p(547, 547) and p(548, 548) and p(549, 549) and
  p(550, 550) and p(551, 551) and p(552, 552) and p(553, 553) and p(554, 554) and p(555, 555) and
  p(556, 556) and p(557, 557) and p(558, 558) and p(559, 559) and p(560, 560) and p(561, 561) and
  p(562, 562) and p(563, 563) and p(564, 564) and p(565, 565) and p(566, 566) and p(567, 567) and
  p(568, 568) and p(569, 569) and p(570, 570) and p(571, 571) and p(572, 572) and p(573, 573) and
  p(574, 574) and p(575, 575) and p(576, 576) and p(577, 577) and p(578, 578) and p(579, 579) and
  p(580, 580) and p(581, 581) and p(582, 582) and p(583, 583) and p(584, 584) and p(585, 585) and
  p(586, 586) and p(587, 587) and p(588, 588) and p(589, 589) and p(590, 590) and p(591, 591) and
  p(592, 592) and p(593, 593) and p(594, 594) and p(595, 595) and p(596, 596) and p(597, 597) and
  p(598, 598) and p(599, 599) and p(600, 600) and p(601, 601) and p(602, 602) and p(603, 603) and
  p(604, 604) and p(605, 605) and p(606, 606) and p(607, 607) and p(608, 608) and p(609, 609) and
  p(610, 610) and p(611, 611) and p(612, 612) and p(613, 613) and p(614, 614) and p(615, 615) and
  p(616, 616) and p(617, 617) and p(618, 618) and p(619, 619) and p(620, 620) and p(621, 621) and
  p(622, 622) and p(623, 623) and p(624, 624) and p(625, 625) and p(626, 626) and p(627, 627) and
  p(628, 628) and p(629, 629) and p(630, 630) and p(631, 631) and p(632, 632) and p(633, 633) and
  p(634, 634) and p(635, 635) and p(636, 636) and p(637, 637) and p(638, 638) and p(639, 639) and
  p(640, 640) and p(641, 641) and p(642, 642) and p(643, 643) and p(644, 644) and p(645, 645) and
  p(646, 646) and p(647, 647) and p(648, 648) and p(649, 649) and p(650, 650) and p(651, 651) and
  p(652, 652) and p(653, 653) and p(654, 654) and p(655, 655) and p(656, 656) and p(657, 657) and
  p(658, 658) and p(659, 659) and p(660, 660) and p(661, 661) and p(662, 662) and p(663, 663) and
  p(664, 664) and p(665, 665) and p(666, 666) and p(667, 667) and p(668, 668) and p(669, 669) and
  p(670, 670) and p(671, 671) and p(672, 672) and p(673, 673) and p(674, 674) and p(675, 675) and
  p(676, 676) and p(677, 677) and p(678, 678) and p(679, 679) and p(680, 680) and p(681, 681) and
  p(682, 682) and p(683, 683) and p(684, 684) and p(685, 685) and p(686, 686) and p(687, 687) and
  p(688, 688) and p(689, 689) and p(690, 690) and p(691, 691) and p(692, 692) and p(693, 693) and
  p(694, 694) and p(695, 695) and p(696, 696) and p(697, 697) and p(698, 698) and p(699, 699) and
  p(700, 700) and p(701, 701) and p(702, 702) and p(703, 703) and p(704, 704) and p(705, 705) and
  p(706, 706) and p(707, 707) and p(708, 708) and p(709, 709) and p(710, 710) and p(711, 711) and
  p(712, 712) and p(713, 713) and p(714, 714) and p(715, 715) and p(716, 716) and p(717, 717) and
  p(718, 718) and p(719, 719) and p(720, 720) and p(721, 721) and p(722, 722) and p(723, 723) and
  p(724, 724) and p(725, 725) and p(726, 726) and p(727, 727) and p(728, 728) and p(729, 729) and
  p(730, 730) and p(731, 731) and p(732, 732) and p(733, 733) and p(734, 734) and p(735, 735) and
  p(736, 736) and p(737, 737) and p(738, 738) and p(739, 739) and p(740, 740) and p(741, 741) and
  p(742, 742) and p(743, 743) and p(744, 744) and p(745, 745) and p(746, 746) and p(747, 747) and
  p(748, 748) and p(749, 749) and p(750, 750) and p(751, 751) and p(752, 752) and p(753, 753) and
  p(754, 754) and p(755, 755) and p(756, 756) and p(757, 757) and p(758, 758) and p(759, 759) and
  p(760, 760) and p(761, 761) and p(762, 762) and p(763, 763) and p(764, 764) and p(765, 765) and
  p(766, 766) and p(767, 767) and p(768, 768) and p(769, 769) and p(770, 770) and p(771, 771) and
  p(772, 772) and p(773, 773) and p(774, 774) and p(775, 775) and p(776, 776) and p(777, 777) and
  p(778, 778) and p(779, 779) and p(780, 780) and p(781, 781) and p(782, 782) and p(783, 783) and
  p(784, 784) and p(785, 785) and p(786, 786) and p(787, 787) and p(788, 788) and p(789, 789) and
  p(790, 790) and p(791, 791) and p(792, 792) and p(793, 793) and p(794, 794) and p(795, 795) and
  p(796, 796) and p(797, 797) and p(798, 798) and p(799, 799) and p(800, 800) and p(801, 801) and
  p(802, 802) and p(803, 803) and p(804, 804) and p(805, 805) and p(806, 806) and p(807, 807) and
  p(808, 808) and p(809, 809) and p(810, 810) and p(811, 811) and p(812, 812) and p(813, 813) and
  p(814, 814) and p(815, 815) and p(816, 816) and p(817, 817) and p(818, 818) and p(819, 819) and
  p(820, 820) and p(821, 821) and p(822, 822) and p(823, 823) and p(824, 824) and p(825, 825) and
  p(826, 826) and p(827, 827) and p(828, 828) and p(829, 829) and p(830, 830) and p(831, 831) and
  p(832, 832) and p(833, 833) and p(834, 834) and p(835, 835) and p(836, 836) and p(837, 837) and
  p(838, 838) and p(839, 839) and p(840, 840) and p(841, 841) and p(842, 842) and p(843, 843) and
  p(844, 844) and p(845, 845) and p(846, 846) and p(847, 847) and p(848, 848) and p(849, 849) and
  p(850, 850) and p(851, 851) and p(852, 852) and p(853, 853) and p(854, 854) and p(855, 855) and
  p(856, 856) and p(857, 857) and p(858, 858) and p(859, 859) and p(860, 860) and p(861, 861) and
  p(862, 862) and p(863, 863) and p(864, 864) and p(865, 865) and p(866, 866) and p(867, 867) and
  p(868, 868) and p(869, 869) and p(870, 870) and p(871, 871) and p(872, 872) and p(873, 873) and
  p(874, 874) and p(875, 875) and p(876, 876) and p(877, 877) and p(878, 878) and p(879, 879) and
  p(880, 880) and p(881, 881) and p(882, 882) and p(883, 883) and p(884, 884) and p(885, 885) and
  p(886, 886) and p(887, 887) and p(888, 888) and p(889, 889) and p(890, 890) and p(891, 891) and
  p(892, 892) and p(893, 893) and p(894, 894) and p(895, 895) and p(896, 896) and p(897, 897) and
  p(898, 898) and p(899, 899) and p(900, 900) and p(901, 901) and p(902, 902) and p(903, 903) and
  p(904, 904) and p(905, 905) and p(906, 906) and p(907, 907) and p(908, 908) and p(909, 909) and
  p(910, 910) and p(911, 911) and p(912, 912) and p(913, 913) and p(914, 914) and p(915, 915) and
  p(916, 916) and p(917, 917) and p(918, 918) and p(919, 919) and p(920, 920) and p(921, 921) and
  p(922, 922) and p(923, 923) and p(924, 924) and p(925, 925) and p(926, 926) and p(927, 927) and
  p(928, 928) and p(929, 929) and p(930, 930) and p(931, 931) and p(932, 932) and p(933, 933) and
  p(934, 934) and p(935, 935) and p(936, 936) and p(937, 937) and p(938, 938) and p(939, 939) and
  p(940, 940) and p(941, 941) and p(942, 942) and p(943, 943) and p(944, 944) and p(945, 945) and
  p(946, 946) and p(947, 947) and p(948, 948) and p(949, 949) and p(950, 950) and p(951, 951) and
  p(952, 952) and p(953, 953) and p(954, 954) and p(955, 955) and p(956, 956) and p(957, 957) and
  p(958, 958) and p(959, 959) and p(960, 960) and p(961, 961) and p(962, 962) and p(963, 963) and
  p(964, 964) and p(965, 965) and p(966, 966) and p(967, 967) and p(968, 968) and p(969, 969) and
  p(970, 970) and p(971, 971) and p(972, 972) and p(973, 973) and p(974, 974) and p(975, 975) and
  p(976, 976) and p(977, 977) and p(978, 978) and p(979, 979) and p(980, 980) and p(981, 981) and
  p(982, 982) and p(983, 983) and p(984, 984) and p(985, 985) and p(986, 986) and p(987, 987) and
  p(988, 988) and p(989, 989) and p(990, 990) and p(991, 991) and p(992, 992) and p(993, 993) and
  p(994, 994) and p(995, 995) and p(996, 996) and p(997, 997) and p(998, 998) and p(999, 999)
print('long and', la, #log) log = {}
return {v0, v1, v2, v3, v4, v5, v6, v7, m1, m2, x, lo, la}
